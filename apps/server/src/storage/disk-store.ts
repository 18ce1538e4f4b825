import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream, type Dirent } from "node:fs";
import { copyFile, mkdir, open, readdir, rename, rm, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { AppError } from "../platform/errors.ts";
import { API_PART_PATH, assertKey, type BlobStore, type PutResult, uploadStagingPrefix } from "./blob-store.ts";
import { createPrefixHasher, type PrefixHasher } from "./prefix-hasher.ts";
import type { Signer } from "./signer.ts";

/**
 * Counts (and, for whole files, hashes) bytes on their way to disk; fails the stream past `maxBytes`.
 * The ETag is opaque, as S3 allows: a fresh random value per write, so a part re-sent gets a new one
 * and a stale ETag at complete is caught, without hashing every byte twice.
 */
function meter(maxBytes: number | undefined, withSha = true) {
  const sha = withSha ? createHash("sha256") : null;
  let size = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (maxBytes !== undefined && size > maxBytes) {
        cb(new AppError("PAYLOAD_TOO_LARGE", `The body is larger than the ${maxBytes} bytes expected.`));
        return;
      }
      sha?.update(chunk);
      cb(null, chunk);
    },
  });
  return {
    t,
    result: (): PutResult => ({ size, etag: randomBytes(16).toString("hex"), sha256: sha ? sha.digest("hex") : "" }),
  };
}

export function diskError(err: unknown): never {
  const code = (err as { code?: string }).code;
  if (code === "ENOSPC" || code === "EDQUOT") {
    throw new AppError(
      "STORAGE_FULL",
      "The server is out of storage space. Try again later or ask an admin to free space.",
    );
  }
  throw err;
}

/** Every file under `dir` as a key relative to `root`, in byte order of the keys, depth first. */
async function* walkKeys(root: string, dir: string): AsyncGenerator<{ key: string; size: number }> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as { code?: string }).code === "ENOENT" || (err as { code?: string }).code === "ENOTDIR") return;
    throw err;
  }
  // A directory "a" sorts as "a/": keys stay in byte order across levels.
  const named = entries.map((e) => ({ e, sortKey: e.isDirectory() ? `${e.name}/` : e.name }));
  named.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
  for (const { e } of named) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walkKeys(root, p);
    else if (e.isFile()) {
      const s = await stat(p).catch(() => null);
      if (s) yield { key: path.relative(root, p).split(path.sep).join("/"), size: s.size };
    }
  }
}

/**
 * `signer` signs the part URLs of uploads (our own PUT route); without it the store still reads and
 * writes, but cannot hand out upload URLs.
 */
export function createDiskStore(
  root: string,
  hasher: PrefixHasher = createPrefixHasher(),
  options: { signer?: Signer } = {},
): BlobStore {
  const abs = (key: string) => {
    assertKey(key);
    return path.join(root, key);
  };
  const tmpDir = path.join(root, ".tmp");

  async function writeAtomically(dest: string, write: (tmp: string) => Promise<void>) {
    await mkdir(tmpDir, { recursive: true });
    await mkdir(path.dirname(dest), { recursive: true });
    const tmp = path.join(tmpDir, randomUUID());
    try {
      await write(tmp);
      const fh = await open(tmp, "r");
      await fh.sync();
      await fh.close();
      await rename(tmp, dest);
    } catch (err) {
      await unlink(tmp).catch(() => {});
      diskError(err);
    }
  }

  async function finishParts(
    uploadKey: string,
    dest: string,
    opts: { knownSha256?: string; parts: Array<{ offset: number; etag: string }> },
  ) {
    const file = path.join(abs(uploadKey), "data");
    const size = (await stat(file)).size;
    const sha256 = opts.knownSha256 ?? (await hasher.finish(uploadKey, file, size, opts.parts));
    const target = abs(dest);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(file, target).catch(diskError);
    return { size, sha256 };
  }

  async function deletePrefix(prefix: string) {
    if (prefix.startsWith("uploads/")) hasher.drop(prefix.replace(/\/$/, ""));
    await rm(abs(prefix.replace(/\/$/, "")), { recursive: true, force: true });
  }

  return {
    kind: "disk",
    async putStream(key, body, opts = {}) {
      const m = meter(opts.maxBytes);
      await writeAtomically(abs(key), (tmp) => pipeline(body, m.t, createWriteStream(tmp)));
      return m.result();
    },
    async putFile(key, localPath) {
      await writeAtomically(abs(key), (tmp) => copyFile(localPath, tmp));
    },
    async read(key, range) {
      const file = abs(key);
      await stat(file);
      return createReadStream(file, range ? { start: range.start, end: range.end } : {});
    },
    async stat(key) {
      try {
        const s = await stat(abs(key));
        return { size: s.size, mtime: s.mtime };
      } catch {
        return null;
      }
    },
    async writePart(uploadKey, offset, body, opts) {
      const file = path.join(abs(uploadKey), "data");
      await mkdir(path.dirname(file), { recursive: true });
      const m = meter(opts.maxBytes, opts.sha256);
      // Positional write into the one upload file: parts land where they belong, no assembly copy later.
      // flush: the data is fsync'd before the stream closes, so the answer means "on disk".
      await (await open(file, "a", 0o600)).close(); // create without truncating (parts arrive in any order)
      const out = createWriteStream(file, {
        flags: "r+",
        start: offset,
        highWaterMark: 1 << 20,
        flush: true,
      });
      await pipeline(body, m.t, out).catch(diskError);
      const result = m.result();
      if (!opts.sha256) hasher.partWritten(uploadKey, file, offset, result.size, result.etag);
      return result;
    },
    async move(from, to) {
      const dest = abs(to);
      await mkdir(path.dirname(dest), { recursive: true });
      await rename(abs(from), dest).catch(diskError);
    },
    async delete(key) {
      await rm(abs(key), { force: true });
    },
    deletePrefix,
    async *list(prefix) {
      const cut = prefix.lastIndexOf("/");
      const dir = cut < 0 ? root : abs(prefix.slice(0, cut));
      for await (const entry of walkKeys(root, dir)) {
        if (entry.key.startsWith(".tmp/") || !entry.key.startsWith(prefix)) continue;
        yield entry;
      }
    },
    async beginUpload() {
      return { storeUploadId: null };
    },
    async partUrls(upload, ttlSeconds) {
      const { signer } = options;
      if (!signer) throw new Error("this disk store was made without a signer: no upload URLs");
      return Promise.all(
        Array.from({ length: upload.partCount }, (_v, i) =>
          signer.sign("PUT", API_PART_PATH(upload.id, i + 1), ttlSeconds),
        ),
      );
    },
    // Parts come through our own route and are recorded in upload_parts.
    receivedParts: async () => null,
    completeUpload(upload, parts, o = {}) {
      return finishParts(uploadStagingPrefix(upload.id), upload.key, {
        knownSha256: o.knownSha256,
        parts: parts.map((p) => ({ offset: (p.partNumber - 1) * upload.partSize, etag: p.etag })),
      });
    },
    async abortUpload(upload) {
      await deletePrefix(uploadStagingPrefix(upload.id));
    },
    presignGet: async () => null,
    localPath: (key) => abs(key),
    close: () => hasher.close(),
  };
}

export type { Readable };
