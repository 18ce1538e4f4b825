import { createSerialWorker } from "../platform/worker-threads.ts";

export type HashRequest =
  | { type: "part"; uploadId: string; file: string; offset: number; size: number; etag: string }
  | { type: "drop"; uploadId: string }
  | {
      type: "finish";
      uploadId: string;
      file: string;
      size: number;
      parts: Array<{ offset: number; etag: string }>;
    };

export interface PrefixHasher {
  /** A part is durably written: hash it (in order) in the background thread. Never throws. */
  partWritten(uploadId: string, file: string, offset: number, size: number, etag: string): void;
  /** The SHA-256 of the whole file, reusing the prefix hashed so far when its parts are the final ones. */
  finish(uploadId: string, file: string, size: number, parts: Array<{ offset: number; etag: string }>): Promise<string>;
  drop(uploadId: string): void;
  close(): Promise<void>;
}

const HOUR = 60 * 60 * 1000;

/**
 * Whole-file SHA-256 of multipart uploads, computed while the parts arrive, in a worker thread: the
 * complete call then only hashes what is left (often nothing) and the event loop never hashes.
 * State is per process and in memory; after a restart, or when parts went to another process,
 * `finish` hashes the rest (or all) of the file from disk, so the answer is always the file's hash.
 */
export function createPrefixHasher(): PrefixHasher {
  const worker = createSerialWorker({ file: new URL("./prefix-hash-worker.ts", import.meta.url), name: "sha256" });
  const reason = "The upload could not be checksummed.";
  return {
    partWritten(uploadId, file, offset, size, etag) {
      worker
        .call({ type: "part", uploadId, file, offset, size, etag } satisfies HashRequest, { timeoutMs: HOUR, reason })
        .catch(() => {}); // a lost prefix only means finish hashes more
    },
    finish(uploadId, file, size, parts) {
      return worker.call<string>({ type: "finish", uploadId, file, size, parts } satisfies HashRequest, {
        timeoutMs: HOUR,
        reason,
      });
    },
    drop(uploadId) {
      worker.call({ type: "drop", uploadId } satisfies HashRequest, { timeoutMs: HOUR, reason }).catch(() => {});
    },
    close: () => worker.close(),
  };
}
