import sharp from "sharp";
import type { HeicBitmap, HeicRequest } from "./heic-worker.ts";
import type { DecodedImage } from "./image.ts";
import { createSerialWorker, MediaError, type SerialWorker } from "./limits.ts";

/**
 * HEIC (iPhone photos): decoded by libheif in WebAssembly in a worker thread (heic-worker.ts), since
 * sharp's libvips has no HEVC decoder; the RGBA it answers becomes the same preview every other image
 * yields, so renditions, placeholder, colours and quality need nothing of their own.
 */

/**
 * HEIC images with more pixels are refused: the thread holds the decoded RGBA (4 bytes a pixel) plus
 * libheif's planes. The largest iPhone photos (48 MP) fit.
 */
export const HEIC_MAX_PIXELS = 64_000_000;
/** After an image this large the thread is replaced, handing its grown WebAssembly memory back. */
const RECYCLE_PIXELS = 24_000_000;

let heicWorker: SerialWorker | null = null;
function worker(): SerialWorker {
  heicWorker ??= createSerialWorker({
    file: new URL("./heic-worker.ts", import.meta.url),
    name: "HEIC decoder",
    maxOldGenerationSizeMb: 128,
    idleMs: 60_000,
  });
  return heicWorker;
}

/** Stops the decoder thread (tests, shutdown). The next HEIC starts a new one. */
export async function closeHeicWorker(): Promise<void> {
  const w = heicWorker;
  heicWorker = null;
  await w?.close();
}

/**
 * The primary image of a HEIC file (a path or its bytes) as a preview of at most `previewSize` on its
 * long side, already rotated and mirrored as the file says. Throws MediaError (image.ts translates it).
 */
export async function decodeHeic(
  source: string | Buffer,
  opts: { previewSize: number; maxPixels: number; timeoutSeconds: number },
): Promise<DecodedImage> {
  const w = worker();
  const request: HeicRequest =
    typeof source === "string"
      ? { file: source, maxPixels: Math.min(opts.maxPixels, HEIC_MAX_PIXELS) }
      : { bytes: new Uint8Array(source), maxPixels: Math.min(opts.maxPixels, HEIC_MAX_PIXELS) };
  const bitmap = await w.call<HeicBitmap>(request, {
    timeoutMs: opts.timeoutSeconds * 1000,
    reason: "HEIC image could not be decoded",
    transfer: request.bytes ? [request.bytes.buffer as ArrayBuffer] : undefined,
  });
  if (bitmap.width * bitmap.height > RECYCLE_PIXELS) await w.recycle();
  const { data, info } = await sharp(Buffer.from(bitmap.data.buffer, bitmap.data.byteOffset, bitmap.data.byteLength), {
    raw: { width: bitmap.width, height: bitmap.height, channels: 4 },
    limitInputPixels: false,
  })
    .resize({ width: opts.previewSize, height: opts.previewSize, fit: "inside", withoutEnlargement: true })
    .raw({ depth: "uchar" })
    .timeout({ seconds: opts.timeoutSeconds })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new MediaError("HEIC image could not be decoded", `${info.channels} channels`);
  return {
    width: bitmap.width,
    height: bitmap.height,
    format: "heif",
    pages: bitmap.images,
    preview: { data, width: info.width, height: info.height, channels: 4 },
  };
}
