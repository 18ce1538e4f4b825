/**
 * PDFium worker thread (started by document.ts through createSerialWorker). PDFium runs as
 * synchronous WebAssembly: a page that takes forever would block whichever thread runs it, so it
 * runs here, where the main thread can terminate it. One document at a time; the main thread
 * serialises documents. Pages are also encoded here (sharp, off this thread's event loop while
 * the next page renders), so only their sizes go back: 5 MB bitmaps arriving on the server's
 * main thread made its large heap collect again and again (2.5 s of GC for 450 pages).
 *
 * Licences: @hyzyla/pdfium is MIT; the PDFium it compiles to WebAssembly is BSD-3-Clause
 * (Google/Foxit) with third-party parts under Apache-2.0 and other permissive licences.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import { type PDFiumDocument, PDFiumLibrary } from "@hyzyla/pdfium";
import sharp from "sharp";
import { serveWorker } from "./limits.ts";
import { repairPdf } from "./pdf-repair.ts";

export type PdfRequest =
  | { op: "init" }
  | { op: "open"; file: string }
  /** Rebuilds a damaged document's structure (pdf-repair.ts) into `out`; answers its page count. */
  | { op: "repair"; file: string; out: string }
  /** Draws the page and starts writing it as JPEG to `file` (and, resized, to `thumbnail`); answers
   * once drawn. A failed write is answered by the next render or by `flush`. */
  | {
      op: "render";
      index: number;
      longSide: number;
      file: string;
      quality: number;
      thumbnail?: { file: string; longSide: number };
    }
  /** Waits for every page started so far to be written; answers the thumbnail's size if one was made. */
  | { op: "flush" }
  /** The PDF's own page labels ("iv", "A-1"), null for a page without one. */
  | { op: "labels" }
  | { op: "close" };

export interface PdfPageSize {
  width: number;
  height: number;
}

let library: PDFiumLibrary | null = null;
let doc: PDFiumDocument | null = null;

/** Size of the WebAssembly heap: it only grows, so the main thread recycles a bloated thread. */
function heapBytes(): number {
  const module = (library as unknown as { module?: { HEAPU8?: Uint8Array } } | null)?.module;
  return module?.HEAPU8?.byteLength ?? 0;
}

interface WasmModule {
  _malloc(size: number): number;
  _free(ptr: number): void;
  _FPDF_GetPageLabel(doc: number, index: number, buffer: number, length: number): number;
  _FPDF_LoadPage(doc: number, index: number): number;
  _FPDF_ClosePage(page: number): void;
  _FPDF_GetPageWidthF(page: number): number;
  _FPDF_GetPageHeightF(page: number): number;
  _FPDFBitmap_CreateEx(width: number, height: number, format: number, buffer: number, stride: number): number;
  _FPDFBitmap_FillRect(bitmap: number, left: number, top: number, width: number, height: number, color: number): void;
  _FPDFBitmap_Destroy(bitmap: number): void;
  _FPDF_RenderPageBitmap(
    bitmap: number,
    page: number,
    x: number,
    y: number,
    width: number,
    height: number,
    rotate: number,
    flags: number,
  ): void;
  HEAPU8: Uint8Array;
}

const inner = (document: PDFiumDocument) => document as unknown as { module: WasmModule; documentIdx: number };

/** FPDFBitmap_BGR: 3 bytes a pixel; with FPDF_REVERSE_BYTE_ORDER the bytes come out R, G, B. */
const BITMAP_BGR = 2;
/** FPDF_ANNOT | FPDF_REVERSE_BYTE_ORDER. Not FPDF_LCD_TEXT (the wrapper's default): sub-pixel text
 * is for a screen at 1:1, it fringes text in colour once the image is scaled, and it cost half the
 * render time (17.7 against 11.4 ms a page). Greyscale anti-aliasing, as pdftoppm does. */
const RENDER_FLAGS = 0x01 | 0x10;

/**
 * One page to RGB through PDFium's C API (the module the wrapper keeps private): the wrapper's
 * `render` only draws 4-byte BGRA with LCD text, which then needs its alpha removed before JPEG —
 * 3-byte RGB is a quarter less to draw, copy, transfer and encode (render + encode 13.5 against
 * 26 ms of CPU a page).
 */
function renderPage(
  document: PDFiumDocument,
  index: number,
  longSide: number,
  /** Takes the RGB pixels, a view into the wasm heap valid only during the call. */
  keep: (pixels: Uint8Array) => void,
): PdfPageSize {
  const { module, documentIdx } = inner(document);
  const page = module._FPDF_LoadPage(documentIdx, index);
  if (!page) throw new Error(`page ${index + 1} could not be loaded`);
  let ptr = 0;
  let bitmap = 0;
  try {
    const originalWidth = module._FPDF_GetPageWidthF(page);
    const originalHeight = module._FPDF_GetPageHeightF(page);
    if (!(originalWidth > 0 && originalHeight > 0)) throw new Error(`page ${index + 1} has no usable size`);
    const scale = longSide / Math.max(originalWidth, originalHeight);
    const width = Math.max(1, Math.round(originalWidth * scale));
    const height = Math.max(1, Math.round(originalHeight * scale));
    const size = width * height * 3;
    ptr = module._malloc(size);
    if (!ptr) throw new Error(`no memory for a ${width}×${height} page`);
    bitmap = module._FPDFBitmap_CreateEx(width, height, BITMAP_BGR, ptr, width * 3);
    if (!bitmap) throw new Error(`no memory for a ${width}×${height} page`);
    module._FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
    module._FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, RENDER_FLAGS);
    keep(module.HEAPU8.subarray(ptr, ptr + size));
    return { width, height };
  } finally {
    if (bitmap) module._FPDFBitmap_Destroy(bitmap);
    if (ptr) module._free(ptr);
    module._FPDF_ClosePage(page);
  }
}

/**
 * FPDF_GetPageLabel through the module the wrapper keeps private: the label is UTF-16LE with a
 * terminating NUL; a length of 0 (or just the NUL) means the page has no label.
 */
function pageLabels(document: PDFiumDocument): Array<string | null> {
  const { module, documentIdx } = inner(document);
  if (typeof module?._FPDF_GetPageLabel !== "function") return [];
  const count = document.getPageCount();
  const size = 512;
  const buffer = module._malloc(size);
  try {
    const labels: Array<string | null> = [];
    for (let i = 0; i < count; i++) {
      const length = module._FPDF_GetPageLabel(documentIdx, i, buffer, size);
      if (length <= 2 || length > size) {
        labels.push(null);
        continue;
      }
      const bytes = module.HEAPU8.slice(buffer, buffer + length - 2);
      labels.push(new TextDecoder("utf-16le").decode(bytes) || null);
    }
    return labels;
  } finally {
    module._free(buffer);
  }
}

function closeDoc() {
  doc?.destroy();
  doc = null;
}

/**
 * Two bitmap buffers used in turn: one is read by the encoder while the next page is drawn into
 * the other. Reused from page to page (grown when a page is larger), so pages make no garbage.
 */
const buffers: Array<{ data: Buffer; writing: Promise<void> }> = [
  { data: Buffer.alloc(0), writing: Promise.resolve() },
  { data: Buffer.alloc(0), writing: Promise.resolve() },
];
let turn = 0;
let writeError: Error | null = null;
let thumbnailSize: PdfPageSize | null = null;

/** Settles every write started so far; throws the first failure (once). */
async function settleWrites() {
  await Promise.all(buffers.map((b) => b.writing));
  const err = writeError;
  writeError = null;
  if (err) throw err;
}

/** The buffer for the next page, once the write that last used it has finished. */
async function nextSlot() {
  const slot = buffers[turn]!;
  turn = 1 - turn;
  await slot.writing;
  if (writeError) await settleWrites();
  return slot;
}

function startWrite(slot: (typeof buffers)[number], page: PdfPageSize, req: Extract<PdfRequest, { op: "render" }>) {
  const size = page.width * page.height * 3;
  const raw = () =>
    sharp(slot.data.subarray(0, size), { raw: { width: page.width, height: page.height, channels: 3 } });
  const write = async () => {
    await raw().jpeg({ quality: req.quality, optimiseCoding: false }).toFile(req.file);
    if (req.thumbnail) {
      const { file, longSide } = req.thumbnail;
      const out = await raw()
        .resize(longSide, longSide, { fit: "inside", withoutEnlargement: true })
        .jpeg({ quality: req.quality })
        .toFile(`${file}.part`);
      await rename(`${file}.part`, file);
      thumbnailSize = { width: out.width, height: out.height };
    }
  };
  slot.writing = write().catch((err: Error) => {
    writeError ??= err;
  });
}

serveWorker(async (req: PdfRequest) => {
  switch (req.op) {
    case "init": {
      library ??= await PDFiumLibrary.init();
      return { result: null };
    }
    case "open": {
      if (!library) throw new Error("PDFium is not initialised");
      closeDoc();
      await settleWrites().catch(() => undefined);
      thumbnailSize = null;
      const bytes = await readFile(req.file);
      try {
        doc = await library.loadDocument(bytes);
      } catch (err) {
        // PDFium's messages ("File not in PDF format or corrupted", "Password required…").
        throw new Error((err as Error).message ?? String(err));
      }
      return { result: { pageCount: doc.getPageCount() } };
    }
    case "repair": {
      const repaired = await repairPdf(await readFile(req.file));
      await writeFile(req.out, repaired.bytes);
      return { result: { pageCount: repaired.pageCount } };
    }
    case "render": {
      if (!doc) throw new Error("no open document");
      const slot = await nextSlot();
      const page = renderPage(doc, req.index, req.longSide, (pixels) => {
        if (slot.data.byteLength < pixels.byteLength) slot.data = Buffer.allocUnsafe(pixels.byteLength);
        slot.data.set(pixels);
      });
      startWrite(slot, page, req);
      return { result: page };
    }
    case "flush": {
      await settleWrites();
      return { result: thumbnailSize };
    }
    case "labels": {
      if (!doc) throw new Error("no open document");
      return { result: pageLabels(doc) };
    }
    case "close": {
      closeDoc();
      await settleWrites().catch(() => undefined);
      return { result: { heapBytes: heapBytes() } };
    }
  }
});
