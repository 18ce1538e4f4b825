import { createWriteStream } from "node:fs";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { BlobStore } from "./blob-store.ts";

/**
 * Copies an object to a local file for tools that need a path (sharp, ffmpeg, PDFium) when the store
 * has none (S3). Never more than `maxBytes`: an object larger than its row says fails the copy
 * instead of filling the disk. The caller owns (and removes) the file.
 */
export async function copyToLocalFile(store: BlobStore, key: string, file: string, maxBytes: number): Promise<void> {
  let seen = 0;
  const bound = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > maxBytes) cb(new Error(`${key} is larger than the ${maxBytes} bytes recorded for it`));
      else cb(null, chunk);
    },
  });
  await pipeline(await store.read(key), bound, createWriteStream(file, { highWaterMark: 1 << 20 }));
}
