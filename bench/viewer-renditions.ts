// bench/viewer-renditions: what the viewer's renditions add to the pipeline, beside the step they
// follow, in the same run on the same files:
//   - large.jpg (2560 px) for a 12 MP TIFF, against that image's usual analysis (thumbnail, grid,
//     placeholder, EXIF, colours, quality);
//   - sprite.jpg (scrub-bar frames) for a 60 s 720p clip, against its web.mp4 transcode.
// A JPEG or PNG original under 25 MB gets no large.jpg (the viewer zooms into the original), so
// bench/thumbnails, which uploads JPEGs, is unchanged by it.
// Run: npx tsx bench/viewer-renditions.ts   (RUNS=3 by default)
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { renderLarge } from "../apps/server/src/media/image.ts";
import { analyseImage } from "../apps/server/src/media/image-analysis.ts";
import { runTool } from "../apps/server/src/media/limits.ts";
import { ffmpegPath, transcodeVideo, videoSprite } from "../apps/server/src/media/video.ts";

const RUNS = Number(process.env.RUNS ?? 3);
const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-viewer-"));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

try {
  const tiff = path.join(dir, "scan.tif");
  await sharp({ create: { width: 4000, height: 3000, channels: 3, noise: { type: "gaussian", mean: 128, sigma: 40 } } })
    .tiff({ compression: "lzw" })
    .toFile(tiff);
  const clip = path.join(dir, "clip.mp4");
  await runTool(
    await ffmpegPath(),
    [
      ...["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=25:duration=60"],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-y", clip],
    ],
    { timeoutMs: 300_000, maxOutputBytes: 1 << 20 },
  );

  const analyse: number[] = [];
  const large: number[] = [];
  const transcode: number[] = [];
  const sprite: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const out = path.join(dir, `out-${i}`);
    await import("node:fs/promises").then((fs) => fs.mkdir(out, { recursive: true }));
    analyse.push(await timed(() => analyseImage(tiff, out)));
    large.push(await timed(() => renderLarge(tiff, out)));
    transcode.push(await timed(() => transcodeVideo(clip, out)));
    sprite.push(await timed(() => videoSprite(path.join(out, "web.mp4"), out)));
  }
  const row = (what: string, extra: number[], base: number[], baseName: string) =>
    console.log(
      `${what.padEnd(28)} ${median(extra).toFixed(0).padStart(6)} ms   ${baseName.padEnd(26)} ${median(base).toFixed(0).padStart(6)} ms   extra ${(median(extra) / median(base)).toFixed(2)}×`,
    );
  console.log(`median of ${RUNS} runs`);
  row("large.jpg, 12 MP TIFF", large, analyse, "image analysis (same file)");
  row("sprite.jpg, 60 s 720p clip", sprite, transcode, "web.mp4 transcode");
} finally {
  await rm(dir, { recursive: true, force: true });
}
