/**
 * Watermarks (issue 33; docs/architecture.md "Watermarks"): one SVG mark (a text, or a logo as an
 * embedded PNG) drawn at the picture's size, then composited by sharp onto images and PDF pages'
 * images, embedded as a PNG on every PDF page (pdf-lib), or overlaid by ffmpeg on a video's web copy.
 * Bytes in, bytes out; no SQL, no feature imports.
 */
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import type { WatermarkPosition } from "@hangar/contract";
import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { ffmpegPath } from "./ffmpeg-binaries.ts";
import { IMAGE_LIMITS } from "./image.ts";
import { MediaError, runTool } from "./limits.ts";

export interface Mark {
  /** The filled-in text (no placeholders left), or null for a logo. */
  text: string | null;
  /** A logo's PNG bytes and size (kind logo). */
  logo: { png: Buffer; width: number; height: number } | null;
  position: WatermarkPosition;
  opacity: number;
  /** The mark's width as a percentage of the picture's. */
  size: number;
}

/** A text's colours: light on dark pictures, dark on light ones (a document's white page). */
export type Tone = "light" | "dark";

export const WATERMARK_FAILED = "The watermark could not be applied";

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

/** Where a box of w×h goes in a W×H picture, with a margin of 3 % of the short side. */
function place(pos: WatermarkPosition, W: number, H: number, w: number, h: number) {
  const m = Math.round(Math.min(W, H) * 0.03);
  const col = pos.endsWith("left") ? 0 : pos.endsWith("right") ? 2 : 1;
  const row = pos.startsWith("top") ? 0 : pos.startsWith("bottom") ? 2 : 1;
  const x = [m, (W - w) / 2, W - w - m][col]!;
  const y = [m, (H - h) / 2, H - h - m][row]!;
  return { x: Math.round(x), y: Math.round(y) };
}

/** A bold sans character's mean advance, in em (DejaVu Sans Bold's is about 0.68). */
const EM_PER_CHAR = 0.7;

/** The mark's own box at a picture width: a text's font size follows from its length (≈0.6 em a character). */
function markBox(mark: Mark, W: number, H: number) {
  const w = Math.max(8, (W * mark.size) / 100);
  if (mark.logo) {
    const h = Math.min(H * 0.9, (w * mark.logo.height) / mark.logo.width);
    return { w: (h * mark.logo.width) / mark.logo.height, h, font: 0 };
  }
  const chars = Math.max(1, [...(mark.text ?? "")].length);
  const font = Math.max(6, Math.min(H * 0.25, w / (EM_PER_CHAR * chars)));
  return { w: font * EM_PER_CHAR * chars, h: font * 1.25, font };
}

/** The drawing of one mark whose top-left corner is at (x, y). */
function markElement(
  mark: Mark,
  x: number,
  y: number,
  box: { w: number; h: number; font: number },
  tone: Tone,
  anchor: "start" | "middle" | "end" = "middle",
): string {
  if (mark.logo) {
    const href = `data:image/png;base64,${mark.logo.png.toString("base64")}`;
    return `<image x="${x}" y="${y}" width="${box.w}" height="${box.h}" href="${href}" preserveAspectRatio="xMidYMid meet"/>`;
  }
  // An outline of the other tone keeps it readable where the picture changes under it.
  const stroke = Math.max(1, box.font / 16);
  const [fill, edge] = tone === "light" ? ["#ffffff", "#000000"] : ["#1a1a1a", "#ffffff"];
  // Anchored on the side it sits at: a text a little wider than estimated still stays inside the picture.
  const ax = anchor === "start" ? x : anchor === "end" ? x + box.w : x + box.w / 2;
  return `<text x="${Math.round(ax)}" y="${Math.round(y + box.font)}" text-anchor="${anchor}" font-family="DejaVu Sans, Arial, Helvetica, sans-serif" font-weight="bold" font-size="${box.font}" fill="${fill}" stroke="${edge}" stroke-opacity="0.6" stroke-width="${stroke}" paint-order="stroke">${escapeXml(mark.text ?? "")}</text>`;
}

/** The mark as an SVG the size of the picture (transparent elsewhere). */
export function markSvg(mark: Mark, width: number, height: number, tone: Tone = "light"): Buffer {
  const W = Math.max(1, Math.round(width));
  const H = Math.max(1, Math.round(height));
  const box = markBox(mark, W, H);
  let body: string;
  if (mark.position === "tiled") {
    // A rotated grid of marks: a crop keeps some of them whatever part is cut out.
    const stepX = box.w * 1.6;
    const stepY = Math.max(box.h * 3, H / 6);
    const cells: string[] = [];
    const reach = Math.hypot(W, H);
    for (let y = -reach / 2, row = 0; y < reach; y += stepY, row++)
      for (let x = -reach / 2 + (row % 2) * (stepX / 2); x < reach; x += stepX)
        cells.push(markElement(mark, Math.round(x), Math.round(y), box, tone));
    body = `<g transform="rotate(-30 ${W / 2} ${H / 2})">${cells.join("")}</g>`;
  } else {
    const { x, y } = place(mark.position, W, H, box.w, box.h);
    const p = mark.position;
    body = markElement(mark, x, y, box, tone, p.endsWith("left") ? "start" : p.endsWith("right") ? "end" : "middle");
  }
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><g opacity="${mark.opacity}">${body}</g></svg>`,
  );
}

/** The mark as a PNG the size of the picture (what ffmpeg overlays and PDF pages embed). */
export async function markPng(mark: Mark, width: number, height: number, tone: Tone = "light"): Promise<Buffer> {
  return sharp(markSvg(mark, width, height, tone), { limitInputPixels: false })
    .png()
    .toBuffer();
}

export type StampFormat = "jpeg" | "png" | "webp";
/** The format a stamped image keeps: its own when sharp writes it well, else JPEG. */
export function stampFormat(mime: string): StampFormat {
  if (mime === "image/png") return "png";
  if (mime === "image/webp") return "webp";
  return "jpeg";
}

/** An image (a rendition or an original) with the mark composited at its displayed size; metadata stripped. */
export async function watermarkImage(
  input: Buffer | string,
  mark: Mark,
  format: StampFormat = "jpeg",
): Promise<Buffer> {
  try {
    const opts = { limitInputPixels: IMAGE_LIMITS.maxInputPixels, failOn: "none" as const };
    const meta = await sharp(input, opts).metadata();
    const turned = (meta.orientation ?? 1) >= 5;
    const w = (turned ? meta.height : meta.width) ?? 1;
    const h = (turned ? meta.width : meta.height) ?? 1;
    // The picture's brightness (on a small copy) picks the text's tone.
    const { channels } = await sharp(input, opts).resize(64, 64, { fit: "fill" }).removeAlpha().stats();
    const mean = channels.slice(0, 3).reduce((sum, c) => sum + c.mean, 0) / Math.min(3, channels.length);
    const tone: Tone = mean > 150 ? "dark" : "light";
    const out = sharp(input, opts)
      .rotate()
      .composite([{ input: markSvg(mark, w, h, tone), top: 0, left: 0 }]);
    if (format === "png") return await out.png().toBuffer();
    if (format === "webp") return await out.webp({ quality: 90 }).toBuffer();
    return await out.flatten({ background: "#ffffff" }).jpeg({ quality: 88, mozjpeg: false }).toBuffer();
  } catch (err) {
    throw new MediaError(WATERMARK_FAILED, err instanceof Error ? err.message : String(err), { cause: err });
  }
}

/** A PDF with the mark on every page (embedded once per page size); its text and vectors stay as they are. */
export async function watermarkPdf(input: Uint8Array, mark: Mark): Promise<Uint8Array> {
  try {
    const doc = await PDFDocument.load(input, { ignoreEncryption: true, updateMetadata: false });
    const images = new Map<string, Awaited<ReturnType<typeof doc.embedPng>>>();
    for (const page of doc.getPages()) {
      const { width, height } = page.getSize();
      // Twice the page's points: a sharp mark when printed or zoomed.
      const key = `${Math.round(width)}x${Math.round(height)}`;
      let image = images.get(key);
      if (!image) {
        image = await doc.embedPng(await markPng(mark, width * 2, height * 2, "dark"));
        images.set(key, image);
      }
      page.drawImage(image, { x: 0, y: 0, width, height });
    }
    return await doc.save();
  } catch (err) {
    throw new MediaError(WATERMARK_FAILED, err instanceof Error ? err.message : String(err), { cause: err });
  }
}

/**
 * A video's web copy with the mark burned in (ffmpeg overlay of a PNG the video's size), H.264 at
 * the web copy's settings, audio copied. `onProgress` hears 0–100 as ffmpeg reports its position.
 */
export async function watermarkVideo(opts: {
  input: string;
  output: string;
  width: number;
  height: number;
  duration: number;
  mark: Mark;
  timeoutMs: number;
  onProgress?: (percent: number) => void;
}): Promise<void> {
  const dir = path.dirname(opts.output);
  const markFile = path.join(dir, "mark.png");
  const progressFile = path.join(dir, "progress.txt");
  await sharp(await markPng(opts.mark, opts.width, opts.height)).toFile(markFile);
  const args = [
    ...["-hide_banner", "-nostdin", "-v", "error", "-y", "-threads", "2"],
    ...["-protocol_whitelist", "file,pipe", "-i", opts.input, "-i", markFile],
    ...["-filter_complex", "[0:v][1:v]overlay=0:0:format=auto,format=yuv420p[v]", "-map", "[v]", "-map", "0:a?"],
    ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-c:a", "copy", "-sn", "-dn"],
    ...["-map_metadata", "-1", "-movflags", "+faststart", "-progress", progressFile, "-f", "mp4", opts.output],
  ];
  // ffmpeg writes `out_time_us=` lines as it goes; read them once a second for the visitor's progress bar.
  const timer = setInterval(async () => {
    const text = await readFile(progressFile, "utf8").catch(() => "");
    const all = [...text.matchAll(/out_time_us=(\d+)/g)];
    const us = Number(all[all.length - 1]?.[1] ?? 0);
    if (opts.duration > 0) opts.onProgress?.(Math.min(99, Math.floor(us / 10_000 / opts.duration)));
  }, 1000);
  try {
    await runTool(await ffmpegPath(), args, {
      timeoutMs: opts.timeoutMs,
      maxOutputBytes: 1 << 20,
      reason: WATERMARK_FAILED,
    });
  } finally {
    clearInterval(timer);
    await rm(markFile, { force: true });
    await rm(progressFile, { force: true });
  }
}
