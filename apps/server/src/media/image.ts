import { open, readFile, stat } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { BROWSER_SAFE_IMAGE_TYPES, ZOOM_ORIGINAL_MAX_BYTES } from "@hangar/contract";
import sharp, { type Sharp, type SharpOptions } from "sharp";
import { rgbaToThumbHash } from "thumbhash";
import { decodeHeic, HEIC_MAX_PIXELS } from "./heic.ts";
import { MediaError } from "./limits.ts";
import { looksLikeSvg } from "./sniff.ts";

/**
 * Image renditions with sharp (libvips). The source is decoded ONCE, with shrink-on-load, into a
 * ≤1024 px sRGB preview held in memory; the thumbnail, the grid size, the placeholder and the colour
 * and quality analyses all derive from that preview, so a 12 MP JPEG costs one reduced decode.
 */

export const IMAGE_LIMITS = {
  /** Checked against the header before any pixel is decoded (docs/architecture.md §7: pixel limits before decoding). */
  maxInputPixels: 100_000_000,
  /** SVG is parsed whole by librsvg; a bigger "image" is almost certainly hostile or not artwork. */
  maxSvgBytes: 10 * 1024 * 1024,
  /** Vector art renders at most 4× its intrinsic (72 dpi) size: density ≤ 288 dpi. */
  maxSvgDensity: 288,
  /** Every libvips pipeline is stopped after this long (docs/architecture.md §6: every tool has a time limit). */
  timeoutSeconds: 60,
} as const;

export const THUMBNAIL_FILE = "thumbnail.jpg";
export const GRID_FILE = "grid.jpg";

export type ImageErrorCode = "EMPTY" | "TOO_LARGE" | "CORRUPT" | "UNSUPPORTED" | "UNSAFE_SVG" | "TIMEOUT";

/** A failure of this one asset; `reason` (= `message`) is meant to be stored as the asset's error. */
export class ImageError extends MediaError {
  override name = "ImageError";
  constructor(
    readonly code: ImageErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Decoded 8-bit sRGB pixels (3 channels, or 4 with alpha), row-major, not premultiplied. */
export interface RawPixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

export interface DecodedImage {
  /** Size of the original after EXIF orientation; the canvas of an animation; 72 dpi size of an SVG. */
  width: number;
  height: number;
  /** libvips loader name: jpeg, png, webp, gif, tiff, heif, svg… */
  format: string;
  /** Frames/pages in the file; only the first is rendered. */
  pages: number;
  /** The shared in-memory preview every rendition and analysis derives from. */
  preview: RawPixels;
}

export interface DecodeOptions {
  /** Long side of the preview (never larger than the original raster). Default 1024. */
  previewSize?: number;
  maxInputPixels?: number;
  timeoutSeconds?: number;
}

export interface RenderImageOptions extends DecodeOptions {
  /** Long side of thumbnail.jpg; default 1024 (the preview size). */
  thumbnailSize?: number;
  /** Long side of grid.jpg; default 400. */
  gridSize?: number;
  /** JPEG quality of both renditions; default 82. */
  quality?: number;
}

export interface RenderedImage {
  width: number;
  height: number;
  thumbnail: typeof THUMBNAIL_FILE;
  grid: typeof GRID_FILE;
  /** ThumbHash of the image, base64. */
  placeholder: string;
}

let configured = false;
/**
 * Process-wide libvips settings, applied once on first use rather than at import so tests and other
 * modules importing sharp are unaffected until an image is actually processed.
 * - cache off: every job reads a new file, so the operation cache never hits, and its file cache would
 *   hold descriptors on temp files that the job deletes.
 * - concurrency: sharp defaults to 1 libvips thread per image on glibc (to limit fragmentation); the
 *   job runs one image at a time, so let it use the cores (capped at 4) for lower per-image latency.
 *   On the busy 2-core test box 1 vs 2 threads measured within noise (~105–120 ms per 12 MP JPEG).
 *   The fragmentation is bounded instead by two malloc arenas (bin/malloc-arenas.mjs); with those, 1
 *   thread did not lower bench/thumbnails' peak RSS (536 MB against 503–511 MB with 2).
 */
export function configureSharp(): void {
  if (configured) return;
  configured = true;
  sharp.cache(false);
  sharp.concurrency(Math.min(4, Math.max(1, os.availableParallelism())));
}

/** Decode `source` (a path or encoded bytes) once into an oriented sRGB preview. */
export async function decodeImage(source: string | Buffer, opts: DecodeOptions = {}): Promise<DecodedImage> {
  configureSharp();
  const previewSize = opts.previewSize ?? 1024;
  const limitInputPixels = opts.maxInputPixels ?? IMAGE_LIMITS.maxInputPixels;
  const timeoutSeconds = opts.timeoutSeconds ?? IMAGE_LIMITS.timeoutSeconds;
  const failing = { limit: limitInputPixels, what: "image" };

  const size = typeof source === "string" ? (await stat(source)).size : source.length;
  if (size === 0) throw new ImageError("EMPTY", "The file is empty.");
  const head = typeof source === "string" ? await readHead(source, 4096) : source.subarray(0, 4096);

  if (isHeic(head)) {
    const heic = { limit: Math.min(limitInputPixels, HEIC_MAX_PIXELS), what: "HEIC image" };
    return decodeHeic(source, { previewSize, maxPixels: heic.limit, timeoutSeconds }).catch((e) => fail(e, heic));
  }

  let input: string | Buffer = source;
  let density: number | undefined;
  let svgSize: { width: number; height: number } | undefined;
  if (isSvgHead(head)) {
    if (size > IMAGE_LIMITS.maxSvgBytes) {
      throw new ImageError("TOO_LARGE", `SVG is larger than ${IMAGE_LIMITS.maxSvgBytes} bytes.`);
    }
    // Always hand librsvg bytes, never a path: without a base URL it cannot resolve relative files.
    input = typeof source === "string" ? await readFile(source) : source;
    assertSafeSvg(input.toString("utf8"));
    const intrinsic = await sharp(input, { limitInputPixels: false })
      .metadata()
      .catch((e) => fail(e, failing));
    svgSize = { width: intrinsic.width, height: intrinsic.height };
    // Render near the preview size instead of the declared size: bounded output, crisp vectors.
    const scale = previewSize / Math.max(intrinsic.width, intrinsic.height);
    density = Math.max(1, Math.min(IMAGE_LIMITS.maxSvgDensity, 72 * scale));
  }

  const inputOptions: SharpOptions = {
    limitInputPixels,
    sequentialRead: true,
    // "error" still rejects truncated and undecodable data, but not the harmless warnings many camera
    // and phone JPEGs trigger (extraneous bytes before a marker); the pixel limit is the safety net.
    failOn: "error",
    density,
  };

  // Header only (no pixels): the original's oriented size, which the reduced decode below cannot tell.
  const meta = await sharp(input, inputOptions)
    .metadata()
    .catch((e) => fail(e, failing));
  const oriented = meta.autoOrient ?? { width: meta.width, height: meta.height };

  const { data, info } = await sharp(input, inputOptions)
    .autoOrient()
    .resize({
      width: previewSize,
      height: previewSize,
      fit: "inside",
      withoutEnlargement: true,
      fastShrinkOnLoad: true,
    })
    .toColourspace("srgb")
    .raw({ depth: "uchar" })
    .timeout({ seconds: timeoutSeconds })
    .toBuffer({ resolveWithObject: true })
    .catch((e) => fail(e, failing));

  if (info.channels !== 3 && info.channels !== 4) {
    throw new ImageError("UNSUPPORTED", `Unexpected ${info.channels}-channel output from ${meta.format}.`);
  }
  return {
    width: svgSize?.width ?? oriented.width,
    height: svgSize?.height ?? oriented.height,
    format: meta.format,
    pages: meta.pages ?? 1,
    preview: { data, width: info.width, height: info.height, channels: info.channels },
  };
}

/** Write thumbnail.jpg and grid.jpg into `outDir` from a decoded preview and compute its placeholder. */
export async function writeRenditions(
  decoded: DecodedImage,
  outDir: string,
  opts: RenderImageOptions = {},
): Promise<RenderedImage> {
  const quality = opts.quality ?? 82;
  const thumbnailSize = opts.thumbnailSize ?? 1024;
  const gridSize = opts.gridSize ?? 400;
  const jpeg = (s: Sharp) =>
    // Alpha goes onto white (JPEG has none); mozjpeg off: its trellis search costs more than it saves here.
    s
      .flatten({ background: "#ffffff" })
      .jpeg({ quality, progressive: true, mozjpeg: false })
      .timeout({ seconds: opts.timeoutSeconds ?? IMAGE_LIMITS.timeoutSeconds });
  const fromPreview = () => sharpFromPixels(decoded.preview);
  const inside = (size: number) => ({ width: size, height: size, fit: "inside" as const, withoutEnlargement: true });

  // The three outputs are independent; libuv runs them on separate threads.
  const [, , placeholder] = await Promise.all([
    jpeg(fromPreview().resize(inside(thumbnailSize))).toFile(join(outDir, THUMBNAIL_FILE)),
    jpeg(fromPreview().resize(inside(gridSize))).toFile(join(outDir, GRID_FILE)),
    thumbHashOf(decoded.preview),
  ]);
  return { width: decoded.width, height: decoded.height, thumbnail: THUMBNAIL_FILE, grid: GRID_FILE, placeholder };
}

/**
 * Render the original at `path` into `outDir`: thumbnail.jpg (long side 1024), grid.jpg (long side
 * 400), never upscaled, EXIF orientation applied, first frame of animations. Throws ImageError.
 */
export async function renderImage(path: string, outDir: string, opts: RenderImageOptions = {}): Promise<RenderedImage> {
  const decoded = await decodeImage(path, {
    ...opts,
    previewSize: Math.max(opts.previewSize ?? 0, opts.thumbnailSize ?? 1024),
  });
  return writeRenditions(decoded, outDir, opts);
}

/** ThumbHash (base64) from a ≤100 px RGBA copy of the preview, as the algorithm requires. */
export async function thumbHashOf(pixels: RawPixels): Promise<string> {
  const { data, info } = await sharpFromPixels(pixels)
    .resize({ width: 100, height: 100, fit: "inside", withoutEnlargement: true })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString("base64");
}

export function sharpFromPixels(pixels: RawPixels): Sharp {
  configureSharp();
  return sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels } });
}

/** What the colour and quality analyses accept: a path, encoded bytes, or an already decoded preview. */
export type ImageInput = string | Buffer | RawPixels;

/** Pixels for an analysis, decoding (safely, with all the limits above) only when not already decoded. */
export async function pixelsOf(input: ImageInput, previewSize: number): Promise<RawPixels> {
  if (typeof input === "string" || Buffer.isBuffer(input)) return (await decodeImage(input, { previewSize })).preview;
  return input;
}

/**
 * Reject SVGs that could reach outside the document: entity declarations (billion laughs, external
 * entities), and links (href, xlink:href, CSS url(), @import) to anything but a fragment or data: URI.
 * librsvg does not fetch from the network, and with no base URL cannot read files, but an SVG needing
 * either is not something we want to render anyway.
 */
export function assertSafeSvg(svg: string): void {
  if (/<!ENTITY/i.test(svg)) throw new ImageError("UNSAFE_SVG", "SVG declares entities, which are not allowed.");
  if (/@import/i.test(svg)) throw new ImageError("UNSAFE_SVG", "SVG imports external style sheets.");
  const local = (ref: string) => /^\s*(#|data:)/i.test(ref);
  for (const m of svg.matchAll(/[\s"'](?:[A-Za-z_][\w.-]*:)?href\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    const ref = m[1] ?? m[2] ?? "";
    if (!local(ref)) throw new ImageError("UNSAFE_SVG", "SVG links to an external resource.");
  }
  for (const m of svg.matchAll(/url\(\s*(["']?)([^)"']*)\1\s*\)/gi)) {
    if (!local(m[2] ?? "")) throw new ImageError("UNSAFE_SVG", "SVG links to an external resource.");
  }
}

function isSvgHead(head: Buffer): boolean {
  // Cheap gate first: SVG text starts with "<" after an optional BOM and whitespace.
  const first = head
    .subarray(0, 64)
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart();
  return first.startsWith("<") && looksLikeSvg(head.toString("utf8"));
}

/** HEIF whose brands say HEVC (decoded by heic.ts): the prebuilt libvips only has the AV1 (AVIF) decoder. */
function isHeic(head: Buffer): boolean {
  if (head.length < 16 || head.toString("latin1", 4, 8) !== "ftyp") return false;
  const boxSize = Math.min(head.readUInt32BE(0), head.length);
  const brands: string[] = [head.toString("latin1", 8, 12)];
  for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(head.toString("latin1", at, at + 4));
  const hevc = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"];
  return brands.some((b) => hevc.includes(b)) && !brands.includes("avif");
}

/**
 * Translate a decoder's message (libvips, or the HEIC thread's) into the error reason stored on the
 * asset; `limit` is the pixel limit in force, `what` names the image in the corrupt-file reason.
 */
function fail(error: unknown, opts: { limit: number; what: string }): never {
  if (error instanceof ImageError) throw error;
  const message = error instanceof Error ? error.message : String(error);
  const detail = message.split("\n")[0]!.slice(0, 200);
  if (/pixel limit/i.test(message)) {
    throw new ImageError("TOO_LARGE", `Image is larger than the limit of ${opts.limit} pixels.`);
  }
  if (/timeout|timed out/i.test(message)) throw new ImageError("TIMEOUT", "Image processing took too long.");
  if (/unsupported image format/i.test(message)) throw new ImageError("UNSUPPORTED", "Not a supported image format.");
  throw new ImageError("CORRUPT", `The ${opts.what} is corrupt or truncated (${detail}).`);
}

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const fh = await open(path, "r");
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/**
 * A picture of `file` that sharp (and so OCR) can read: the file itself, or for an HEVC HEIF, which
 * the prebuilt libvips cannot decode (heic.ts can), a PNG of it at a long side of at most `side`
 * written to `out`. Every iPhone photo is one, and without it their text was never read.
 */
export async function sharpReadable(file: string, out: string, side: number): Promise<string> {
  if (!isHeic(await readHead(file, 4096))) return file;
  const { preview } = await decodeImage(file, { previewSize: side });
  await sharp(preview.data, { raw: { width: preview.width, height: preview.height, channels: preview.channels } })
    .png({ compressionLevel: 1 })
    .toFile(out);
  return out;
}

export const LARGE_FILE = "large.jpg";
/** Long side of `large.jpg`, the sharp picture the viewer loads when zooming in. */
export const LARGE_SIZE = 2560;

/**
 * Whether the viewer needs `large.jpg` to zoom sharply: the original is bigger than the 1024
 * preview, and is not a browser-safe type of moderate size (the viewer uses those directly).
 * HEIC is left out (it decodes in its own thread at preview size only), and SVG (vector art).
 */
export function needsLargeRendition(mime: string, bytes: number, width: number, height: number): boolean {
  if (Math.max(width, height) <= 1024 || ["image/heic", "image/heif", "image/svg+xml"].includes(mime)) return false;
  return !BROWSER_SAFE_IMAGE_TYPES.includes(mime) || bytes > ZOOM_ORIGINAL_MAX_BYTES;
}

/** `large.jpg`: the original at a long side of at most 2560 px, auto-rotated, sRGB. */
export async function renderLarge(
  file: string,
  outDir: string,
): Promise<{ file: string; width: number; height: number }> {
  configureSharp();
  const out = await sharp(file, {
    limitInputPixels: IMAGE_LIMITS.maxInputPixels,
    density: 144,
    failOn: "none",
  })
    .timeout({ seconds: IMAGE_LIMITS.timeoutSeconds })
    .rotate()
    .resize({ width: LARGE_SIZE, height: LARGE_SIZE, fit: "inside", withoutEnlargement: true })
    .toColorspace("srgb")
    .jpeg({ quality: 85 }) // libjpeg-turbo: mozjpeg took 5× the analysis on a 12 MP TIFF
    .toFile(join(outDir, LARGE_FILE));
  return { file: LARGE_FILE, width: out.width, height: out.height };
}
