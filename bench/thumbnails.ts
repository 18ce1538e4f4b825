// bench/thumbnails: N generated 12-megapixel JPEGs through upload → COMPLETED (thumbnail, grid,
// placeholder, EXIF, colours, quality; AI tags off: they have their own budget), images per second
// beside `vipsthumbnail` and ImageMagick `convert -thumbnail` on the same files in the same run, with
// the same parallelism (2 workers = 2 cores), plus the server's peak RSS.
// Goal: ≥ 0.8× vipsthumbnail, ≥ 3× ImageMagick, RSS ≤ 1 GB.
// Faces (issue 32) follow COMPLETED in their own job like text: FACES=0 for the figure without them.
// Run: npx tsx bench/thumbnails.ts   (N=200 by default, OCR=0 without text, FACES=0 without faces, REFS=0 without the references;
// apt-get install -y libvips-tools imagemagick)
import { spawn, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import sharp from "sharp";
import { relaunchWithArenaMax } from "../apps/server/bin/malloc-arenas.mjs";
import { benchLogin, benchServer, benchUpload, has, waitProcessed } from "./lib.ts";

// The server in this process runs as `hangar start` does: started again with two malloc arenas
// (apps/server/bin/malloc-arenas.mjs); MALLOC_ARENA_MAX=… of your own (any value) skips it.
if (relaunchWithArenaMax(process.argv[1]!, process.argv.slice(2))) await new Promise(() => {});

const N = Number(process.env.N ?? 200);
const PARALLEL = 2;

const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-thumbs-"));
console.log(`generating ${N} 4000×3000 JPEGs in ${dir} …`);
const noise = await sharp({
  create: { width: 4000, height: 3000, channels: 3, noise: { type: "gaussian", mean: 128, sigma: 40 } },
})
  .jpeg({ quality: 88 })
  .toBuffer();
const files: string[] = [];
const DISTINCT = Math.min(N, Number(process.env.DISTINCT ?? 50));
for (let i = 0; i < DISTINCT; i++) {
  // Each file differs a little (a tinted overlay), so no cache helps anyone.
  const f = path.join(dir, `img-${i}.jpg`);
  await sharp(noise)
    .composite([
      {
        input: { create: { width: 400, height: 300, channels: 3, background: { r: (i * 37) % 255, g: 80, b: 160 } } },
        left: (i * 53) % 3600,
        top: (i * 29) % 2700,
      },
    ])
    .jpeg({ quality: 88 })
    .toFile(f);
  files.push(f);
}
// Each distinct file is used N/DISTINCT times (separate assets), the same list for every tool.
for (let i = files.length; i < N; i++) files.push(files[i % DISTINCT]!);

async function runPool(cmd: (f: string, i: number) => [string, string[]]): Promise<number> {
  const out = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-out-"));
  const t = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < files.length) {
        const i = next++;
        const [bin, args] = cmd(files[i]!, i);
        await new Promise<void>((resolve, reject) => {
          const p = spawn(
            bin,
            args.map((a) => a.replace("{out}", out)),
            { stdio: "ignore" },
          );
          p.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${bin} exited ${code}`))));
          p.on("error", reject);
        });
      }
    }),
  );
  const s = (performance.now() - t) / 1000;
  await rm(out, { recursive: true, force: true });
  return files.length / s;
}

// Ours: real HTTP uploads into a real server whose in-process workers process them.
// OCR is on as in production (OCR=0 for the figure without it); these noise pictures are its worst case.
const srv = await benchServer({
  work: true,
  env: {
    AI_TAGS: "0",
    OCR: process.env.OCR ?? "1",
    FACES: process.env.FACES ?? "1",
    WORKER_CONCURRENCY: String(PARALLEL),
  },
});
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 100);
// The `hangar start` shape: the API and the workers share this event loop (as does this bench's own
// upload client). How long a timer waits here is what an API request would wait.
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
let ours = 0;
let textRate: number | null = null;
let facesRate: number | null = null;
try {
  const { workspaceId, headers } = await benchLogin(srv);
  const t = performance.now();
  const ids = await benchUpload(srv, workspaceId, headers, files);
  const uploaded = performance.now() - t;
  console.log(`  upload phase: ${(uploaded / 1000).toFixed(1)} s for ${files.length} files`);
  const failed = await waitProcessed(srv, ids);
  if (failed) console.log(`  ${failed} assets ended in error`);
  ours = files.length / ((performance.now() - t) / 1000);
  console.log(`  Hangar upload → COMPLETED: ${ours.toFixed(2)} img/s (references follow)`);
  if (srv.rt.config.OCR) {
    // OCR follows COMPLETED in its own job (modules/processing/text-job.ts): when has every text been read?
    const pending = new Set(ids);
    while (pending.size) {
      for (const id of [...pending]) {
        const res = await fetch(`${srv.base}/api/v1/workspaces/${workspaceId}/assets/${id}/recognised-text`, {
          headers,
        });
        if (((await res.json()) as { status: string }).status !== "pending") pending.delete(id);
      }
      if (pending.size) await new Promise((r) => setTimeout(r, 250));
    }
    textRate = files.length / ((performance.now() - t) / 1000);
    console.log(`  every text read: ${textRate.toFixed(2)} img/s from the first upload`);
  }
  if (srv.rt.config.FACES) {
    // Faces follow COMPLETED in their own job (jobs/detect-faces.ts): when has every picture been looked at?
    const pending = new Set(ids);
    while (pending.size) {
      for (const id of [...pending]) {
        const res = await fetch(`${srv.base}/api/v1/workspaces/${workspaceId}/assets/${id}/faces`, { headers });
        if (((await res.json()) as { scanned: boolean }).scanned) pending.delete(id);
      }
      if (pending.size) await new Promise((r) => setTimeout(r, 250));
    }
    facesRate = files.length / ((performance.now() - t) / 1000);
    console.log(`  every picture looked at for faces: ${facesRate.toFixed(2)} img/s from the first upload`);
  }
} finally {
  loop.disable();
  clearInterval(sampler);
  await srv.close();
}

// REFS=0 skips the references (ImageMagick alone takes about 8 minutes for 200 files on 2 cores).
const refs = process.env.REFS !== "0";
const vips =
  refs && has("vipsthumbnail")
    ? await runPool((f, i) => ["vipsthumbnail", [f, "-s", "1024", "-o", `{out}/v${i}.jpg`]])
    : null;
// /usr/local/bin may hold a stand-in `convert`; use a binary that says it is ImageMagick.
const im = ["/usr/bin/convert", "convert"].find((c) =>
  spawnSync(c, ["-version"], { encoding: "utf8" }).stdout?.includes("ImageMagick"),
);
const magick = refs && im ? await runPool((f, i) => [im, [f, "-thumbnail", "1024x1024", `{out}/m${i}.jpg`]]) : null;
await rm(dir, { recursive: true, force: true });

const f = (v: number | null) =>
  v === null ? (refs ? "   (not installed)" : "   (REFS=0)") : `${v.toFixed(2).padStart(8)} img/s`;
console.log(`bench/thumbnails: ${N} × 12 MP JPEG, ${PARALLEL} in parallel`);
console.log(`  Hangar upload → COMPLETED     ${f(ours)}`);
if (textRate !== null) console.log(`  … and every text read (OCR)  ${f(textRate)}`);
if (facesRate !== null) console.log(`  … and every face looked for  ${f(facesRate)}`);
console.log(
  `  vipsthumbnail -s 1024         ${f(vips)}${vips ? `   ratio ${(ours / vips).toFixed(2)}× (goal ≥ 0.8×)` : ""}`,
);
console.log(
  `  convert -thumbnail 1024x1024  ${f(magick)}${magick ? `   ratio ${(ours / magick).toFixed(2)}× (goal ≥ 3×)` : ""}`,
);
// What glibc read at this process's start (the relaunch removes it from process.env again).
const arenas = await readFile("/proc/self/environ", "utf8").then(
  (e) => e.split("\0").find((v) => v.startsWith("MALLOC_ARENA_MAX=")) ?? "MALLOC_ARENA_MAX unset",
  () => "MALLOC_ARENA_MAX unknown",
);
console.log(`  peak RSS (server + workers)   ${(peakRss / 1024 ** 2).toFixed(0)} MB (goal ≤ 1024 MB; ${arenas})`);
const lagMs = (ns: number) => Math.max(0, ns / 1e6 - 10).toFixed(0); // minus the 10 ms resolution
console.log(
  `  event-loop delay, API and workers in one process: p99 ${lagMs(loop.percentile(99))} ms, max ${lagMs(loop.max)} ms`,
);
if (refs && (!vips || !magick)) console.log("  for the references: apt-get install -y libvips-tools imagemagick");
await mkdir(dir, { recursive: true }).catch(() => {});
await rm(dir, { recursive: true, force: true });
