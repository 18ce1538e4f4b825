import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";

/**
 * A test clip made by ffmpeg (the package the server uses): 640 × 360 at 25 fps, `seconds` long,
 * with a 440 Hz tone when `sound`.
 */
export function clipMp4(seconds = 6, sound = false): Buffer {
  const ffmpeg = (createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path: string }).path;
  const dir = mkdtempSync(path.join(os.tmpdir(), "e2e-clip-"));
  const out = path.join(dir, "clip.mp4");
  execFileSync(ffmpeg, [
    ...["-v", "error", "-f", "lavfi", "-i", `testsrc2=size=640x360:rate=25:duration=${seconds}`],
    ...(sound ? ["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`] : []),
    ...["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "ultrafast"],
    ...(sound ? ["-c:a", "aac", "-shortest"] : []),
    out,
  ]);
  const bytes = readFileSync(out);
  rmSync(dir, { recursive: true, force: true });
  return bytes;
}

/** A landscape photo-like JPEG (`width` × `height`) with a few shapes to point at. */
export async function photoJpeg(width = 2400, height = 1500, hue = 30): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width}" height="${height}" fill="hsl(${hue},45%,62%)"/>
    <rect x="${width * 0.2}" y="${height * 0.35}" width="${width * 0.18}" height="${height * 0.55}" fill="#6b4a2b"/>
    <rect x="${width * 0.55}" y="${height * 0.2}" width="${width * 0.25}" height="${height * 0.25}" fill="#fff" fill-opacity="0.8"/>
    <text x="${width * 0.57}" y="${height * 0.36}" font-size="${height * 0.08}" font-family="DejaVu Sans" fill="#234">OPEN</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}
