import { createHash } from "node:crypto";
import { serveWorker } from "../platform/worker-threads.ts";

export interface UrlHashRequest {
  url: string;
}

/**
 * Worker side of the URL hasher: GETs an object (a presigned URL) and hashes the body as it
 * streams, so neither the bytes nor the hashing ever touch the main event loop.
 */
serveWorker(async ({ url }: UrlHashRequest) => {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`GET answered ${res.status}`);
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    size += chunk.byteLength;
  }
  return { result: { sha256: hash.digest("hex"), size } };
});
