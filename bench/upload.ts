// bench/upload: one 2 GiB file through Hangar's multipart path (init, part PUTs 4 at a time to the
// signed URLs, complete: assemble + sha256) beside a raw loopback `curl -T` of the same file to a
// bare Node server that streams the body to disk, in the same run. Goal: ≥ 0.7× the raw throughput.
// Run: npx tsx bench/upload.ts   (SIZE_MIB=2048 by default; needs curl)
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { benchLogin, benchServer, has } from "./lib.ts";

const SIZE = Number(process.env.SIZE_MIB ?? 2048) * 1024 * 1024;
const CONCURRENCY = 4;
const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-upload-"));
const file = path.join(dir, "big.bin");
{
  const block = randomBytes(64 * 1024 * 1024);
  const fh = await open(file, "w");
  for (let written = 0; written < SIZE; written += block.length)
    await fh.write(block, 0, Math.min(block.length, SIZE - written));
  await fh.close();
}
const mbps = (bytes: number, ms: number) => bytes / 1024 / 1024 / (ms / 1000);

// Reference: curl -T to a server that only writes the body to disk.
let reference: number | null = null;
if (has("curl")) {
  const sink = path.join(dir, "sink.bin");
  const bare = http.createServer((req, res) => {
    pipeline(req, createWriteStream(sink)).then(
      () => res.end("ok"),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((r) => bare.listen(0, "127.0.0.1", r));
  const port = (bare.address() as AddressInfo).port;
  const t = performance.now();
  await new Promise<void>((resolve, reject) => {
    const p = spawn("curl", ["-s", "-o", "/dev/null", "-T", file, `http://127.0.0.1:${port}/upload`], {
      stdio: "ignore",
    });
    p.on("exit", (c) => (c === 0 ? resolve() : reject(new Error(`curl exited ${c}`))));
  });
  reference = performance.now() - t;
  bare.close();
  await rm(sink, { force: true });
}

// Hangar: the real protocol over real HTTP.
const srv = await benchServer({ work: false, env: { MAX_UPLOAD_BYTES: String(SIZE * 2) } });
let ours = 0;
try {
  const { workspaceId, headers } = await benchLogin(srv);
  const t = performance.now();
  const init = (await (
    await fetch(`${srv.base}/api/v1/workspaces/${workspaceId}/assets/upload`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "big.bin", size: SIZE }),
    })
  ).json()) as {
    upload_id: string;
    key: string;
    parts: Array<{ part_number: number; start_byte: number; end_byte: number; url: string }>;
  };
  const etags: Array<{ part_number: number; etag: string }> = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < init.parts.length) {
        const p = init.parts[next++]!;
        // node:http with a file stream (as curl reads the file): web streams would bench the client.
        const r = await new Promise<{ status: number; etag: string; body: string }>((resolve, reject) => {
          const req = http.request(`${srv.base}${p.url}`, {
            method: "PUT",
            agent,
            headers: { "content-length": String(p.end_byte - p.start_byte + 1) },
          });
          req.on("error", reject);
          req.on("response", (res) => {
            let text = "";
            res.on("data", (c: Buffer) => {
              text += c;
            });
            res.on("end", () =>
              resolve({ status: res.statusCode ?? 0, etag: String(res.headers.etag ?? ""), body: text }),
            );
          });
          pipeline(createReadStream(file, { start: p.start_byte, end: p.end_byte, highWaterMark: 1 << 20 }), req).catch(
            reject,
          );
        });
        if (r.status !== 200) throw new Error(`part ${p.part_number}: ${r.status} ${r.body}`);
        etags.push({ part_number: p.part_number, etag: r.etag });
      }
    }),
  );
  const partsDone = performance.now();
  const done = await fetch(`${srv.base}/api/v1/workspaces/${workspaceId}/assets/upload/complete`, {
    method: "POST",
    headers,
    body: JSON.stringify({ upload_id: init.upload_id, key: init.key, parts: etags }),
  });
  if (done.status !== 200) throw new Error(`complete: ${done.status} ${await done.text()}`);
  ours = performance.now() - t;
  // Honesty check outside the timing: the answer's sha256 is the file's.
  const answer = (await done.json()) as { sha256: string };
  const h = createHash("sha256");
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
  if (answer.sha256 !== h.digest("hex")) throw new Error("complete answered a wrong sha256");
  console.log(
    `  parts ${((partsDone - t) / 1000).toFixed(1)} s, complete (assemble + sha256) ${((t + ours - partsDone) / 1000).toFixed(1)} s`,
  );
  console.log(
    `bench/upload: ${(SIZE / 1024 ** 3).toFixed(2)} GiB, ${init.parts.length} parts, ${CONCURRENCY} in flight`,
  );
} finally {
  await srv.close();
  await rm(dir, { recursive: true, force: true });
}
console.log(
  `  Hangar multipart (parts + complete)  ${(ours / 1000).toFixed(1).padStart(6)} s  ${mbps(SIZE, ours).toFixed(0).padStart(5)} MiB/s`,
);
if (reference !== null) {
  console.log(
    `  curl -T to a bare loopback server    ${(reference / 1000).toFixed(1).padStart(6)} s  ${mbps(SIZE, reference).toFixed(0).padStart(5)} MiB/s`,
  );
  console.log(`  ratio ${(reference / ours).toFixed(2)}× of raw (goal ≥ 0.7×)`);
} else console.log("  (no curl: install it for the reference)");
