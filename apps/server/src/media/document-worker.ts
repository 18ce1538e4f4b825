/**
 * PDFium worker thread (started by document.ts through createSerialWorker). PDFium runs as
 * synchronous WebAssembly: a page that takes forever would block whichever thread runs it, so it
 * runs here, where the main thread can terminate it. One document at a time; the main thread
 * serialises documents. Pages go back as raw RGBA (transferred, not copied); JPEG encoding
 * stays in the main thread with sharp.
 *
 * Licences: @hyzyla/pdfium is MIT; the PDFium it compiles to WebAssembly is BSD-3-Clause
 * (Google/Foxit) with third-party parts under Apache-2.0 and other permissive licences.
 */
import { readFile } from "node:fs/promises";
import { type PDFiumDocument, PDFiumLibrary } from "@hyzyla/pdfium";
import { serveWorker } from "./limits.ts";

export type PdfRequest =
  | { op: "init" }
  | { op: "open"; file: string }
  | { op: "render"; index: number; longSide: number }
  /** The PDF's own page labels ("iv", "A-1"), null for a page without one. */
  | { op: "labels" }
  | { op: "close" };

export interface PdfPageBitmap {
  width: number;
  height: number;
  /** RGBA, width × height × 4 bytes. */
  data: Uint8Array;
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
  HEAPU8: Uint8Array;
}

/**
 * FPDF_GetPageLabel through the module the wrapper keeps private: the label is UTF-16LE with a
 * terminating NUL; a length of 0 (or just the NUL) means the page has no label.
 */
function pageLabels(document: PDFiumDocument): Array<string | null> {
  const inner = document as unknown as { module: WasmModule; documentIdx: number };
  const { module, documentIdx } = inner;
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

serveWorker(async (req: PdfRequest) => {
  switch (req.op) {
    case "init": {
      library ??= await PDFiumLibrary.init();
      return { result: null };
    }
    case "open": {
      if (!library) throw new Error("PDFium is not initialised");
      closeDoc();
      const bytes = await readFile(req.file);
      try {
        doc = await library.loadDocument(bytes);
      } catch (err) {
        // PDFium's messages ("File not in PDF format or corrupted", "Password required…").
        throw new Error((err as Error).message ?? String(err));
      }
      return { result: { pageCount: doc.getPageCount() } };
    }
    case "render": {
      if (!doc) throw new Error("no open document");
      const page = doc.getPage(req.index);
      const { originalWidth, originalHeight } = page.getOriginalSize();
      if (!(originalWidth > 0 && originalHeight > 0)) {
        // render() is also what closes the page: do it at 1×1 so nothing leaks, then refuse.
        await page.render({ width: 1, height: 1, render: "bitmap" }).catch(() => undefined);
        throw new Error(`page ${req.index + 1} has no usable size`);
      }
      const scale = req.longSide / Math.max(originalWidth, originalHeight);
      const width = Math.max(1, Math.round(originalWidth * scale));
      const height = Math.max(1, Math.round(originalHeight * scale));
      const out = await page.render({ width, height, scale: 1, render: "bitmap" });
      const bitmap: PdfPageBitmap = { width: out.width, height: out.height, data: out.data };
      return { result: bitmap, transfer: [out.data.buffer as ArrayBuffer] };
    }
    case "labels": {
      if (!doc) throw new Error("no open document");
      return { result: pageLabels(doc) };
    }
    case "close": {
      closeDoc();
      return { result: { heapBytes: heapBytes() } };
    }
  }
});
