import { createSerialWorker, type SerialWorker } from "../platform/worker-threads.ts";
import type { UrlHashRequest } from "./url-hash-worker.ts";

export interface UrlHasher {
  /** SHA-256 and byte count of the body a GET of `url` answers, computed in a worker thread. */
  hash(url: string): Promise<{ sha256: string; size: number }>;
  close(): Promise<void>;
}

const HOUR = 60 * 60 * 1000;

/**
 * Whole-object SHA-256 of S3 uploads at complete: the object is streamed back and hashed off the
 * event loop. A few threads, each one hash at a time, the least busy taking the next call, so one
 * huge file does not hold up every other upload's complete.
 */
export function createUrlHasher(threads = 2): UrlHasher {
  const pool = Array.from({ length: threads }, (_v, i) => ({
    busy: 0,
    worker: createSerialWorker({
      file: new URL("./url-hash-worker.ts", import.meta.url),
      name: `sha256-get-${i + 1}`,
      idleMs: 5 * 60_000,
    }) as SerialWorker,
  }));
  return {
    async hash(url) {
      const slot = pool.reduce((a, b) => (b.busy < a.busy ? b : a));
      slot.busy++;
      try {
        return await slot.worker.call<{ sha256: string; size: number }>({ url } satisfies UrlHashRequest, {
          timeoutMs: 6 * HOUR,
          reason: "The upload could not be checksummed.",
        });
      } finally {
        slot.busy--;
      }
    },
    async close() {
      await Promise.all(pool.map((p) => p.worker.close()));
    },
  };
}
