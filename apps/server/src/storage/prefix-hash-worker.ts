import { createHash, type Hash } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";
import { serveWorker } from "../platform/worker-threads.ts";
import type { HashRequest } from "./prefix-hasher.ts";

/**
 * Worker side of the prefix hasher: per upload, a SHA-256 that has consumed the file's bytes up to
 * `hashedTo`, plus the parts written beyond it. Reads go through the page cache the part writes just
 * filled, so the whole-file hash is mostly done by the time the upload is completed.
 */
interface UploadHash {
  hash: Hash;
  hashedTo: number;
  /** offset → {size, etag} of parts written and not yet hashed (they wait for the gap before them). */
  waiting: Map<number, { size: number; etag: string }>;
  /** etag of every part the hash has consumed, by offset: checked against the final list. */
  consumed: Map<number, string>;
  touched: number;
}

const uploads = new Map<string, UploadHash>();
const CHUNK = 4 * 1024 * 1024;
const buffer = Buffer.allocUnsafe(CHUNK);
const IDLE_MS = 2 * 60 * 60 * 1000;

function feed(state: UploadHash, file: string, from: number, to: number) {
  const fd = openSync(file, "r");
  try {
    for (let pos = from; pos < to; ) {
      const n = readSync(fd, buffer, 0, Math.min(CHUNK, to - pos), pos);
      if (n === 0) throw new Error(`${file} ends at ${pos}, before ${to}`);
      state.hash.update(buffer.subarray(0, n));
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
  state.hashedTo = to;
}

/** Consumes waiting parts while they are contiguous with the hashed prefix. */
function advance(state: UploadHash, file: string) {
  for (let next = state.waiting.get(state.hashedTo); next; next = state.waiting.get(state.hashedTo)) {
    const at = state.hashedTo;
    state.waiting.delete(at);
    feed(state, file, at, at + next.size);
    state.consumed.set(at, next.etag);
  }
}

const fresh = (): UploadHash => ({
  hash: createHash("sha256"),
  hashedTo: 0,
  waiting: new Map(),
  consumed: new Map(),
  touched: Date.now(),
});

function handle(req: HashRequest): string | null {
  if (req.type === "part") {
    let state = uploads.get(req.uploadId);
    // A part re-sent over bytes already hashed: start again (the final list decides at finish).
    if (state && req.offset < state.hashedTo && state.consumed.get(req.offset) !== req.etag) state = undefined;
    if (!state) {
      state = fresh();
      uploads.set(req.uploadId, state);
    }
    state.touched = Date.now();
    if (req.offset >= state.hashedTo) state.waiting.set(req.offset, { size: req.size, etag: req.etag });
    advance(state, req.file);
    return null;
  }
  if (req.type === "drop") {
    uploads.delete(req.uploadId);
    return null;
  }
  // finish: the file is whole now. Keep the prefix only if every part it consumed is the final one.
  let state = uploads.get(req.uploadId);
  uploads.delete(req.uploadId);
  const final = new Map(req.parts.map((p) => [p.offset, p.etag]));
  if (!state || [...state.consumed].some(([offset, etag]) => final.get(offset) !== etag)) state = fresh();
  feed(state, req.file, state.hashedTo, req.size);
  return state.hash.digest("hex");
}

setInterval(() => {
  const cutoff = Date.now() - IDLE_MS;
  for (const [id, state] of uploads) if (state.touched < cutoff) uploads.delete(id);
}, 60_000).unref();

serveWorker(async (req: HashRequest) => ({ result: handle(req) }));
