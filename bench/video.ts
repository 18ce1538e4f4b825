// bench/video: N clips (1080p, 30 s: H.264, HEVC, odd dimensions, a portrait phone clip stored landscape
// with rotation metadata) through upload → COMPLETED (web.mp4, poster, scrub sprite), beside the same
// ffmpeg commands run by hand on the same files with the same parallelism (2 = the worker count), plus
// the peak RSS of the server process and its ffmpeg children, and whether rotation was honoured.
// Goal: ≥ 0.9× the CLI, RSS ≤ 1 GB, the portrait clip's web.mp4 portrait.
// Run: npx tsx bench/video.ts   (N=4 by default, one of each kind; SECONDS=30)
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ffmpegPath, ffprobePath, probeVideo } from "../apps/server/src/media/video.ts";
import { mediaKey } from "../apps/server/src/storage/blob-store.ts";
import { benchLogin, benchServer, benchUpload, pool, run, treeRss, waitProcessed } from "./lib.ts";

const N = Number(process.env.N ?? 4);
const SECONDS = Number(process.env.SECONDS ?? 30);
const PARALLEL = 2;
const ffmpeg = await ffmpegPath();
const ffprobe = await ffprobePath();

const KINDS = [
  { name: "h264-1080p", size: "1920x1080", codec: ["-c:v", "libx264", "-preset", "veryfast"], rotate: false },
  {
    name: "hevc-1080p",
    size: "1920x1080",
    codec: ["-c:v", "libx265", "-preset", "ultrafast", "-tag:v", "hvc1"],
    rotate: false,
  },
  { name: "h264-odd-1001x563", size: "1001x563", codec: ["-c:v", "libx264", "-preset", "veryfast"], rotate: false },
  // A phone records landscape pixels and says "rotate 90" when held upright: shown 1080×1920.
  {
    name: "phone-rotated",
    size: "1920x1080",
    codec: ["-c:v", "libx264", "-preset", "veryfast"],
    rotate: true,
  },
] as const;

const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-video-"));
console.log(`generating ${N} clips of ${SECONDS} s in ${dir} …`);
const files: { file: string; kind: string }[] = [];
for (let i = 0; i < N; i++) {
  const kind = KINDS[i % KINDS.length]!;
  const file = path.join(dir, `${i}-${kind.name}.mp4`);
  const encoded = kind.rotate ? `${file}.tmp.mp4` : file;
  await run(ffmpeg, [
    ...[
      "-hide_banner",
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      `testsrc2=size=${kind.size}:rate=30:duration=${SECONDS}`,
    ],
    ...["-f", "lavfi", "-i", `sine=frequency=${440 + i * 20}:duration=${SECONDS}`],
    ...kind.codec,
    ...["-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", "-shortest", encoded],
  ]);
  // The rotation goes in at the remux: set while encoding from lavfi, this ffmpeg drops it.
  if (kind.rotate)
    await run(ffmpeg, ["-v", "error", "-y", "-i", encoded, "-c", "copy", "-metadata:s:v:0", "rotate=90", file]);
  files.push({ file, kind: kind.name });
}

// The CLI: per clip the probe, the web copy, the poster and the sprite with the pipeline's own settings
// (apps/server/src/media/video.ts), two clips at a time.
async function cliRun(): Promise<number> {
  const out = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-video-cli-"));
  const seconds = await pool(files, PARALLEL, async ({ file }, i) => {
    const info = await probeVideo(file);
    await run(ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file]);
    const fitTo = (long: number) => {
      const s = Math.min(1, long / Math.max(info.width, info.height));
      const even = (n: number) => Math.max(2, 2 * Math.floor((n * s + 1e-6) / 2));
      return `${even(info.width)}:${even(info.height)}`;
    };
    const web = path.join(out, `${i}.mp4`);
    await run(ffmpeg, [
      ...[
        "-hide_banner",
        "-nostdin",
        "-v",
        "error",
        "-y",
        "-threads",
        "2",
        "-i",
        file,
        "-map",
        "0:v:0",
        "-map",
        "0:a:0",
      ],
      ...["-c:a", "aac", "-b:a", "128k", "-ac", "2", "-ar", "48000", "-sn", "-dn", "-map_metadata", "-1"],
      ...["-vf", `scale=${fitTo(1280)}:flags=bicubic,setsar=1`, "-c:v", "libx264", "-preset", "veryfast", "-crf", "23"],
      ...["-profile:v", "high", "-pix_fmt", "yuv420p", "-threads", "2", "-movflags", "+faststart", web],
    ]);
    await run(ffmpeg, [
      ...["-hide_banner", "-nostdin", "-v", "error", "-y", "-threads", "2", "-ss", (info.duration * 0.1).toFixed(3)],
      ...[
        "-i",
        file,
        "-frames:v",
        "1",
        "-vf",
        `scale=${fitTo(1024)}:flags=bicubic,setsar=1`,
        "-q:v",
        "3",
        path.join(out, `${i}.jpg`),
      ],
    ]);
    const interval = Math.max(1, Math.ceil((info.duration / 100) * 10) / 10);
    const frames = Math.min(100, Math.ceil(info.duration / interval));
    const cols = Math.min(10, frames);
    await run(ffmpeg, [
      ...["-hide_banner", "-nostdin", "-v", "error", "-y", "-threads", "2", "-i", web, "-an", "-frames:v", "1"],
      ...[
        "-vf",
        `fps=1/${interval},scale=${fitTo(160)}:flags=bicubic,setsar=1,tile=${cols}x${Math.ceil(frames / cols)}`,
      ],
      ...["-q:v", "5", path.join(out, `${i}-sprite.jpg`)],
    ]);
  });
  await rm(out, { recursive: true, force: true });
  return seconds;
}

// The CLI runs before and after Hangar and the mean is taken: other load on the machine shifts both alike.
const cliBefore = await cliRun();

// Ours: real uploads, in-process workers, as `hangar start` runs them.
const srv = await benchServer({ work: true, env: { AI_TAGS: "0", WORKER_CONCURRENCY: String(PARALLEL) } });
let peakRss = 0;
const sampler = setInterval(() => {
  void treeRss().then((b) => {
    peakRss = Math.max(peakRss, b);
  });
}, 200);
let ours = 0;
let uploadSeconds = 0;
const rotation: string[] = [];
try {
  const { workspaceId, headers } = await benchLogin(srv);
  const t = performance.now();
  const ids = await benchUpload(
    srv,
    workspaceId,
    headers,
    files.map((f) => f.file),
  );
  uploadSeconds = (performance.now() - t) / 1000;
  const failed = await waitProcessed(srv, ids);
  ours = (performance.now() - t) / 1000;
  if (failed) console.log(`  ${failed} clips ended in error`);
  for (const [i, id] of ids.entries()) {
    if (files[i]!.kind !== "phone-rotated") continue;
    const a = await srv.rt.db
      .selectFrom("assets")
      .select(["width", "height", "status", "directory"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const web = srv.rt.store.localPath(mediaKey(a.directory!, "web.mp4"));
    const w = web ? await probeVideo(web) : null;
    rotation.push(`asset ${a.width}×${a.height}, web.mp4 ${w ? `${w.width}×${w.height}` : "?"} (${a.status})`);
  }
} finally {
  clearInterval(sampler);
  await srv.close();
}

const cliAfter = await cliRun();
const cli = (cliBefore + cliAfter) / 2;
await rm(dir, { recursive: true, force: true });

console.log(`bench/video: ${N} clips × ${SECONDS} s (${files.map((f) => f.kind).join(", ")}), ${PARALLEL} at a time`);
console.log(
  `  Hangar upload → COMPLETED   ${ours.toFixed(1).padStart(6)} s (the uploads took ${uploadSeconds.toFixed(1)} s of it)`,
);
console.log(
  `  ffmpeg by hand, same steps  ${cli.toFixed(1).padStart(6)} s (${cliBefore.toFixed(1)} before, ${cliAfter.toFixed(1)} after)  ratio ${(cli / ours).toFixed(2)}× the CLI's speed (goal ≥ 0.9×)`,
);
console.log(`  peak RSS, server + ffmpeg   ${(peakRss / 1024 ** 2).toFixed(0).padStart(6)} MB (goal ≤ 1024 MB)`);
if (rotation.length) console.log(`  portrait phone clip stored as ${rotation.join(", ")} (goal: taller than wide)`);
