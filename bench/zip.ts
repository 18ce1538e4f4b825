// bench/zip: a board of ~1 GiB of JPEGs downloaded as a streamed zip over HTTP, beside `zip -0 -r`
// on the same originals in the same run. Reports time to first byte, MiB/s, and the RSS peak of
// this process (the server runs in it) while the zip streams.
// Goal: ≥ 0.8× zip -0 throughput, first byte < 0.5 s, RSS growth < 200 MB.
// Run: npx tsx bench/zip.ts   (COUNT=100 SIZE_MB=10 by default; BENCH_DATABASE_URL=… for another server)
import { spawn, spawnSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { originalKey } from "../apps/server/src/storage/blob-store.ts";
import { benchLogin, benchServer, has } from "./lib.ts";

const COUNT = Number(process.env.COUNT ?? 100);
const SIZE_MB = Number(process.env.SIZE_MB ?? 10);
/** Distinct images encoded; uploads cycle through them (encoding 100 noisy 10 MB JPEGs alone takes minutes). */
const DISTINCT = Math.min(COUNT, 12);
const mib = (b: number) => b / 1024 / 1024;

if (!has("zip")) throw new Error("bench/zip needs the zip CLI for its reference");
const tmp = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-zip-"));
const srv = await benchServer({ work: true, env: { AI_TAGS: "0", MAX_UPLOAD_BYTES: String(1024 ** 3) } });
try {
  const { workspaceId, headers } = await benchLogin(srv);
  const api = `${srv.base}/api/v1/workspaces/${workspaceId}`;
  const post = async (url: string, body: unknown) => {
    const r = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
    if (r.status >= 300) throw new Error(`${url}: ${r.status} ${await r.text()}`);
    return r.json();
  };

  // Noise defeats JPEG compression, so the files are as big and as incompressible as real photos.
  const side = Math.round(Math.sqrt((SIZE_MB * 1e6) / 0.9));
  const t0 = performance.now();
  const images: Buffer[] = [];
  for (let i = 0; i < DISTINCT; i++) {
    images.push(
      await sharp({
        create: {
          width: side,
          height: side,
          channels: 3,
          background: "#000",
          noise: { type: "gaussian", mean: 100 + i, sigma: 50 },
        },
      })
        .jpeg({ quality: 95 })
        .toBuffer(),
    );
  }
  const board = (await post(`${api}/boards`, { name: "Bench board" })) as { id: string };
  const ids: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const data = images[i % DISTINCT]!;
    const name = `photo-${String(i).padStart(3, "0")}.jpg`;
    const init = await post(`${api}/assets/upload`, { name, size: data.length, board_id: board.id });
    const parts = init.direct_url
      ? [{ part_number: 1, start_byte: 0, end_byte: data.length - 1, url: init.direct_url as string }]
      : (init.parts as Array<{ part_number: number; start_byte: number; end_byte: number; url: string }>);
    const etags = [];
    for (const p of parts) {
      const r = await fetch(`${srv.base}${p.url}`, {
        method: "PUT",
        body: data.subarray(p.start_byte, p.end_byte + 1),
        headers: { "content-type": "application/octet-stream" },
      });
      if (r.status !== 200) throw new Error(`PUT part ${p.part_number}: ${r.status} ${await r.text()}`);
      etags.push({ part_number: p.part_number, etag: r.headers.get("etag") ?? "" });
    }
    if (!init.direct_url)
      await post(`${api}/assets/upload/complete`, { upload_id: init.upload_id, key: init.key, parts: etags });
    ids.push(init.asset_id as string);
  }
  for (const id of ids) {
    for (;;) {
      const a = (await (await fetch(`${api}/assets/${id}`, { headers })).json()) as { status: string };
      if (a.status === "COMPLETED") break;
      if (a.status === "error") throw new Error(`asset ${id} failed processing`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const seeded = performance.now() - t0;

  // The reference: zip -0 over the same originals, copied from the store to plain files first.
  const ref = path.join(tmp, "Bench board");
  await mkdir(ref);
  let total = 0;
  for (const [i, id] of ids.entries()) {
    const src = srv.rt.store.localPath(originalKey(`${workspaceId}/${id}`));
    if (!src) throw new Error("bench/zip needs the disk store");
    const dest = path.join(ref, `photo-${String(i).padStart(3, "0")}.jpg`);
    await copyFile(src, dest);
    total += (await stat(dest)).size;
  }
  spawnSync("sync");
  const tz = performance.now();
  const z = spawnSync("zip", ["-0", "-r", "-q", path.join(tmp, "ref.zip"), "Bench board"], { cwd: tmp });
  if (z.status !== 0) throw new Error(`zip failed: ${z.stderr}`);
  const refMs = performance.now() - tz;
  const refSize = (await stat(path.join(tmp, "ref.zip"))).size;
  await rm(path.join(tmp, "ref.zip"));

  // Ours: POST for the URL, then GET the stream over loopback, counting bytes as they come.
  const { download_url } = (await post(`${api}/download`, { board_ids: [board.id] })) as { download_url: string };
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 20);
  // curl as the client when there is one: a separate process, so this one measures the server alone.
  let firstByte = 0;
  let bytes = 0;
  let oursMs = 0;
  if (has("curl")) {
    const out = await new Promise<string>((resolve, reject) => {
      const p = spawn("curl", [
        "-s",
        "-o",
        "/dev/null",
        "-w",
        "%{http_code} %{time_starttransfer} %{time_total} %{size_download}",
        `${srv.base}${download_url}`,
      ]);
      let text = "";
      p.stdout.on("data", (d: Buffer) => {
        text += d.toString();
      });
      p.on("exit", (c) => (c === 0 ? resolve(text) : reject(new Error(`curl exited ${c}`))));
    });
    const [code, ttfb, totalS, size] = out.trim().split(" ");
    if (code !== "200") throw new Error(`zip GET: ${code}`);
    firstByte = Number(ttfb) * 1000;
    oursMs = Number(totalS) * 1000;
    bytes = Number(size);
  } else {
    const t1 = performance.now();
    const res = await fetch(`${srv.base}${download_url}`);
    if (res.status !== 200 || !res.body) throw new Error(`zip GET: ${res.status}`);
    for await (const chunk of res.body) {
      if (bytes === 0) firstByte = performance.now() - t1;
      bytes += (chunk as Uint8Array).length;
    }
    oursMs = performance.now() - t1;
  }
  clearInterval(sampler);

  const speed = (b: number, ms: number) => `${(mib(b) / (ms / 1000)).toFixed(0).padStart(5)} MiB/s`;
  console.log(
    `bench/zip on ${srv.label}: ${COUNT} JPEGs, ${mib(total).toFixed(0)} MiB in one board (seeded and processed in ${(seeded / 1000).toFixed(0)} s)`,
  );
  console.log(
    `  Hangar board zip (HTTP)  ${(oursMs / 1000).toFixed(2).padStart(6)} s ${speed(bytes, oursMs)}   ${mib(bytes).toFixed(0)} MiB zip`,
  );
  console.log(
    `  zip -0 -r (same files)   ${(refMs / 1000).toFixed(2).padStart(6)} s ${speed(refSize, refMs)}   ${mib(refSize).toFixed(0)} MiB zip`,
  );
  console.log(`  ratio                    ${(refMs / oursMs).toFixed(2)}× of zip -0 (goal ≥ 0.8×)`);
  console.log(`  time to first byte       ${firstByte.toFixed(0)} ms (goal < 500 ms)`);
  console.log(
    `  RSS during the zip       ${mib(rssBefore).toFixed(0)} → peak ${mib(rssPeak).toFixed(0)} MiB, +${mib(rssPeak - rssBefore).toFixed(0)} MiB (goal < 200 MB)`,
  );
} finally {
  await srv.close();
  await rm(tmp, { recursive: true, force: true });
}
