/**
 * HEIC decoder thread (started by heic.ts through createSerialWorker). HEIC is HEIF with HEVC-coded
 * images, what iPhones shoot; the libvips in sharp's prebuilt binaries has no HEVC decoder, so these
 * files are decoded here by libheif compiled to WebAssembly (libheif-js, through heic-decode). The
 * decoder is synchronous WebAssembly and takes seconds for a large photo: it runs in this thread so
 * the event loop stays free and the main thread can time it out and terminate it. Pixels go back as
 * RGBA (transferred, not copied); resizing and encoding stay with sharp in the main thread.
 *
 * Licences: heic-decode is ISC; libheif-js (libheif and libde265 compiled to WebAssembly) is LGPL-3.0,
 * loaded unmodified from its own package.
 */
import { readFile } from "node:fs/promises";
import decode from "heic-decode";
import { serveWorker } from "./limits.ts";

export interface HeicRequest {
  /** The file to read, or its bytes. */
  file?: string;
  bytes?: Uint8Array;
  /** Refuse (before decoding any pixel) an image with more pixels than this. */
  maxPixels: number;
}

export interface HeicBitmap {
  width: number;
  height: number;
  /** Images in the file (bursts, live photos); only the primary one is decoded. */
  images: number;
  /** RGBA, width × height × 4 bytes. */
  data: Uint8Array;
}

serveWorker(async (req: HeicRequest) => {
  const buffer = req.bytes ?? (req.file ? await readFile(req.file) : null);
  if (!buffer) throw new Error("nothing to decode");
  const images = await decode.all({ buffer });
  try {
    const primary = images[0];
    if (!primary) throw new Error("the file holds no image");
    if (primary.width * primary.height > req.maxPixels) {
      throw new Error(`Input image exceeds pixel limit (${primary.width}×${primary.height})`);
    }
    const pixels = await primary.decode();
    const data = new Uint8Array(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength);
    const bitmap: HeicBitmap = { width: pixels.width, height: pixels.height, images: images.length, data };
    return { result: bitmap, transfer: [data.buffer as ArrayBuffer] };
  } finally {
    images.dispose();
  }
});
