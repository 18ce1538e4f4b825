import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";

/**
 * Pixel checks of watermarked pictures (issue 33's tests and bench): two pictures are compared in
 * the watermark's region (a centred mark: the middle third) at a common small size, as the mean
 * absolute difference per channel (0–255).
 */
export async function regionDifference(a: Buffer, b: Buffer): Promise<number> {
  const side = 96;
  const raw = (x: Buffer) =>
    sharp(x, { failOn: "none" })
      .flatten({ background: "#ffffff" })
      .resize(side, side, { fit: "fill" })
      .removeAlpha()
      .raw()
      .toBuffer();
  const [pa, pb] = await Promise.all([raw(a), raw(b)]);
  let sum = 0;
  let n = 0;
  for (let y = side / 3; y < (2 * side) / 3; y++)
    for (let x = side / 6; x < (5 * side) / 6; x++)
      for (let c = 0; c < 3; c++) {
        const i = (y * side + x) * 3 + c;
        sum += Math.abs(pa[i]! - pb[i]!);
        n++;
      }
  return sum / n;
}

/** A frame of an MP4 (at `at` seconds) as PNG bytes, read with the bundled ffmpeg. */
export async function videoFrame(mp4: Buffer, at = 0.5): Promise<Buffer> {
  const { ffmpegPath } = await import("../src/media/video.ts");
  const file = path.join(os.tmpdir(), `hangar-wm-${randomUUID()}.mp4`);
  await writeFile(file, mp4);
  return execFileSync(await ffmpegPath(), [
    ...["-v", "error", "-ss", String(at), "-i", file, "-frames:v", "1", "-f", "image2pipe", "-vcodec", "png", "-"],
  ]);
}

/** Every `/media/…` URL anywhere in an answer (strings nested at any depth). */
export function mediaUrlsIn(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (typeof value === "string") {
    if (value.startsWith("/media/") || value.includes("/downloads/zip")) out.add(value);
  } else if (Array.isArray(value)) for (const v of value) mediaUrlsIn(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) mediaUrlsIn(v, out);
  return out;
}

/** The plain path of a watermarked media URL (what a member's session reads). */
export const plainPathOf = (url: string) => url.split("?")[0]!.replace(/\/wm\/[^/]+\//, "/");
