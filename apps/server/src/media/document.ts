/**
 * Document previews (docs/architecture.md §6): PDF pages to `pages/N.jpg` + `thumbnail.jpg`, page count, and
 * office files converted to PDF through LibreOffice when it is installed.
 *
 * PDF rendering uses PDFium compiled to WebAssembly via @hyzyla/pdfium (MIT; PDFium itself is
 * BSD-3-Clause with Apache-2.0 and other permissive third-party parts). It runs in long-lived
 * worker threads (document-worker.ts; two share a document's pages) so a page that never finishes
 * can be stopped by terminating its thread: `withTimeout` alone cannot interrupt synchronous
 * WebAssembly.
 * Memory: the input size is capped before loading, rendered bitmaps are at most longSide², the
 * PDFium build cannot grow past 2 GiB of wasm memory, and a thread whose heap has grown large is
 * recycled after the document.
 */
import { copyFile, mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { PdfPageSize, PdfRequest } from "./document-worker.ts";
import { createSerialWorker, findExecutable, lastLines, MediaError, runTool, type SerialWorker } from "./limits.ts";

export const UNREADABLE = "Document could not be read";
/** A PDF that neither PDFium nor its repair could open; the asset's error goes on with what each said. */
export const DAMAGED = "Document is damaged and could not be repaired";
const MAX_REASON = 400;

export interface RenderPdfOptions {
  /** Documents with more pages are refused (a page-tree bomb, or simply too big to preview). */
  maxPages?: number;
  /** Pages rendered to images; the rest are only counted. Default: every page. */
  renderPages?: number;
  /** Long side of page images in pixels. */
  longSide?: number;
  /** Input size cap in bytes (the whole file is copied into the wasm heap). */
  maxBytes?: number;
  pageTimeoutMs?: number;
  /** Overall budget for open + all pages. */
  timeoutMs?: number;
  /** Render threads sharing the pages (default: 2, fewer on a machine with fewer cores). */
  threads?: number;
}

export interface PdfPage {
  /** 1-based. */
  number: number;
  /** The PDF's own label of the page ("iv", "A-1"), when it has one that differs from the number. */
  label?: string;
  /** Relative to outDir, e.g. "pages/1.jpg". */
  file: string;
  width: number;
  height: number;
}

export interface PdfRendition {
  pageCount: number;
  pages: PdfPage[];
  thumbnail: { file: "thumbnail.jpg"; width: number; height: number };
}

const THUMBNAIL_LONG_SIDE = 1024;
const OPEN_TIMEOUT_MS = 30_000;
/** Above this, the thread is replaced after the document so the wasm heap is handed back. */
const RECYCLE_HEAP_BYTES = 512 * 1024 ** 2;

/**
 * Render threads: pages of one document are shared between them, each thread holding its own open
 * copy of the document (opened once, not per page) and writing its own JPEGs. Two, as bench/documents
 * runs pdftoppm as two processes over the two halves of a PDF; fewer on a machine with fewer cores.
 * WASM heaps are per thread (about 60 MB more for the second), still flat in the page count.
 */
const RENDER_THREADS = Math.max(1, Math.min(2, os.availableParallelism()));

const pdfWorkers: Array<SerialWorker | null> = [];
function worker(slot: number): SerialWorker {
  pdfWorkers[slot] ??= createSerialWorker({
    file: new URL("./document-worker.ts", import.meta.url),
    name: "PDF renderer",
    maxOldGenerationSizeMb: 256,
    idleMs: 60_000,
    init: {
      message: { op: "init" } satisfies PdfRequest,
      timeoutMs: 30_000,
      reason: "Document preview is unavailable",
    },
  });
  return pdfWorkers[slot]!;
}

/** Stops the PDF threads (tests, shutdown). The next render starts new ones. */
export async function closeDocumentWorker(): Promise<void> {
  const all = pdfWorkers.splice(0);
  await Promise.all(all.map((w) => w?.close()));
}

/** How many threads the PDF renderer has started (tests check restarts after a timeout). */
export const documentWorkerStarts = () => pdfWorkers.reduce((n, w) => n + (w?.starts ?? 0), 0);

/** One document at a time: the threads together hold a single open document. */
let turn: Promise<unknown> = Promise.resolve();

/** Renders the first `renderPages` pages to `outDir/pages/N.jpg` and page 1 to `thumbnail.jpg`. */
export function renderPdf(file: string, outDir: string, options: RenderPdfOptions = {}): Promise<PdfRendition> {
  const run = () => renderPdfNow(file, outDir, options);
  const result = turn.then(run, run);
  turn = result.catch(() => undefined);
  return result;
}

async function renderPdfNow(file: string, outDir: string, options: RenderPdfOptions): Promise<PdfRendition> {
  const {
    maxPages = 2000,
    renderPages = Number.POSITIVE_INFINITY,
    longSide = 1600,
    maxBytes = 200 * 1024 ** 2,
    pageTimeoutMs = 20_000,
    threads = RENDER_THREADS,
  } = options;
  // Every page gets an image, so the budget grows with the pages (a second each beyond two minutes).
  let timeoutMs = options.timeoutMs ?? 120_000;
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new MediaError(UNREADABLE, "file not found");
  if (info.size === 0) throw new MediaError(UNREADABLE, "the file is empty");
  if (info.size > maxBytes) throw new MediaError("Document is too large", `${info.size} bytes > ${maxBytes}`);

  const started = Date.now();
  const budget = (ms: number) => {
    const deadline = started + timeoutMs;
    const left = deadline - Date.now();
    if (left <= 0) throw new MediaError(UNREADABLE, `rendering took longer than ${timeoutMs} ms`);
    return Math.min(ms, left);
  };
  const pagesDir = path.join(outDir, "pages");
  /** Threads holding the document open: each is closed at the end, whatever happened. */
  const opened: SerialWorker[] = [];
  /** The file the threads render: the upload, or its repaired copy (a private temp dir). */
  let source = file;
  let repairDir: string | null = null;
  const open = async (pdf: SerialWorker) => {
    const r = await pdf.call<{ pageCount: number }>({ op: "open", file: source } satisfies PdfRequest, {
      timeoutMs: budget(OPEN_TIMEOUT_MS),
      reason: UNREADABLE,
    });
    if (!opened.includes(pdf)) opened.push(pdf);
    return r;
  };
  /**
   * PDFium gives up on a broken cross-reference table that other readers rebuild (issue 27): the
   * document gets a rebuilt structure (pdf-repair.ts, in the thread) and PDFium a second chance.
   * When that fails too, the asset's error says what each step said.
   */
  const openOrRepair = async (pdf: SerialWorker): Promise<{ pageCount: number }> => {
    let pdfiumSaid: string;
    try {
      const r = await open(pdf);
      if (r.pageCount >= 1) return r;
      pdfiumSaid = "no pages";
    } catch (err) {
      // Say so plainly: the fix (upload an unprotected copy) is on the user's side.
      if (/password/i.test((err as Error).message))
        throw new MediaError("Document is password-protected", (err as Error).message);
      if (/timed out/.test((err as Error).message)) throw err;
      pdfiumSaid = detailOf(err);
    }
    repairDir = await mkdtemp(path.join(os.tmpdir(), "hangar-pdf-repair-"));
    const repaired = path.join(repairDir, "repaired.pdf");
    const fail = (what: string) =>
      new MediaError(`${DAMAGED}: PDFium said "${pdfiumSaid}"; ${what}`.slice(0, MAX_REASON));
    await pdf
      .call({ op: "repair", file, out: repaired } satisfies PdfRequest, {
        timeoutMs: budget(OPEN_TIMEOUT_MS),
        reason: UNREADABLE,
      })
      .catch((err: unknown) => {
        throw fail(`the repair said "${detailOf(err)}"`);
      });
    source = repaired;
    const r = await open(pdf).catch((err: unknown) => {
      throw fail(`after the repair, "${detailOf(err)}"`);
    });
    if (r.pageCount < 1) throw fail("the repaired copy has no pages");
    return r;
  };
  let lanes: Array<Promise<void>> = [];
  let stop = false;
  try {
    const first = worker(0);
    const { pageCount } = await openOrRepair(first);
    if (pageCount > maxPages) throw new MediaError("Document has too many pages", `${pageCount} > ${maxPages}`);
    if (options.timeoutMs === undefined) timeoutMs += Math.min(pageCount, renderPages) * 1000;
    const renderCount = Math.min(pageCount, Math.max(1, renderPages));
    // The other threads open their copy while the first reads the labels and starts on page 1.
    const others = Array.from({ length: Math.min(threads, renderCount) - 1 }, (_, i) => worker(i + 1));
    const labels = await first
      .call<Array<string | null>>({ op: "labels" } satisfies PdfRequest, {
        timeoutMs: budget(10_000),
        reason: UNREADABLE,
      })
      .catch(() => [] as Array<string | null>);

    await rm(pagesDir, { recursive: true, force: true });
    await mkdir(pagesDir, { recursive: true });
    const pages: PdfPage[] = [];
    let thumbnail: PdfRendition["thumbnail"] | null = null;
    let nextIndex = 0;
    const take = () => (!stop && nextIndex < renderCount ? nextIndex++ : null);
    /** One thread's share of the pages, taken one at a time. The thread writes each page itself and
     * answers as soon as it is drawn, so it draws the next page while the last one is written: at
     * most two bitmaps a thread are alive whatever the page count. */
    const lane = async (pdf: SerialWorker) => {
      let failed = false;
      try {
        for (let index = take(); index !== null; index = take()) {
          const name = `pages/${index + 1}.jpg`;
          const size = await pdf.call<PdfPageSize>(
            {
              op: "render",
              index,
              longSide,
              file: path.join(outDir, name),
              // libjpeg's defaults at quality 85, as `pdftoppm -jpeg -jpegopt quality=85` writes (see
              // document-worker.ts: optimised Huffman tables cost twice the encode time for 7 %).
              quality: 85,
              ...(index === 0
                ? { thumbnail: { file: path.join(outDir, "thumbnail.jpg"), longSide: THUMBNAIL_LONG_SIDE } }
                : {}),
            } satisfies PdfRequest,
            { timeoutMs: budget(pageTimeoutMs), reason: UNREADABLE },
          );
          const label = labels[index];
          pages[index] = {
            number: index + 1,
            file: name,
            ...size,
            ...(label && label !== String(index + 1) ? { label } : {}),
          };
        }
      } catch (err) {
        failed = true;
        stop = true;
        throw err;
      } finally {
        // Every page this thread started is on disk (or failed) before the lane ends. After a
        // timeout the thread is gone with its writes.
        if (pdf.running) {
          const made = await pdf
            .call<PdfPageSize | null>({ op: "flush" } satisfies PdfRequest, {
              timeoutMs: failed ? 10_000 : budget(pageTimeoutMs),
              reason: UNREADABLE,
            })
            .catch((err: unknown) => {
              if (failed) return null;
              stop = true;
              throw err;
            });
          if (made) thumbnail = { file: "thumbnail.jpg", ...made };
        }
      }
    };
    lanes = [
      lane(first),
      // A thread that cannot open its copy just leaves its share to the others.
      ...others.map((pdf) =>
        open(pdf).then(
          () => lane(pdf),
          () => undefined,
        ),
      ),
    ];
    const settled = await Promise.allSettled(lanes);
    const failed = settled.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
    if (!thumbnail || pages.length !== renderCount) throw new MediaError(UNREADABLE, "no page could be rendered");
    return { pageCount, pages, thumbnail };
  } catch (err) {
    // No half set of pages: the asset either has its previews or an error (every lane has ended).
    stop = true;
    await Promise.allSettled(lanes);
    await rm(pagesDir, { recursive: true, force: true });
    await rm(path.join(outDir, "thumbnail.jpg.part"), { force: true });
    if (err instanceof MediaError) throw err;
    throw new MediaError(UNREADABLE, (err as Error).message, { cause: err });
  } finally {
    // After a timeout or crash a thread is gone with its document: nothing to close, and
    // calling would only start a new thread for nothing.
    await Promise.all(
      opened
        .filter((pdf) => pdf.running)
        .map(async (pdf) => {
          const closed = await pdf
            .call<{ heapBytes: number }>({ op: "close" } satisfies PdfRequest, { timeoutMs: 5_000, reason: UNREADABLE })
            .catch(() => null);
          if (closed && closed.heapBytes > RECYCLE_HEAP_BYTES) await pdf.recycle();
        }),
    );
    if (repairDir) await rm(repairDir, { recursive: true, force: true });
  }
}

/** What a step said, without the user-facing reason the worker call put in front of it. */
function detailOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const reason = (err as { reason?: string }).reason;
  const detail = reason && message.startsWith(`${reason}: `) ? message.slice(reason.length + 2) : message;
  return detail.slice(0, 160);
}

// --- office documents through LibreOffice ----------------------------------------------------

export const OFFICE_EXTENSIONS = ["doc", "docx", "ppt", "pptx", "xls", "xlsx", "rtf", "txt", "odt", "ods", "odp"];

export type OfficeConversion = { pdfPath: string } | { unavailable: true; reason: string };

export interface ConvertOfficeOptions {
  /** The real type's extension when the stored file has none (uploads live under opaque keys). */
  extension?: string;
  timeoutMs?: number;
  maxBytes?: number;
  memoryBytes?: number;
}

/** LibreOffice binary on PATH, or null (checked on each call: it may be installed later). */
export function findSoffice(): string | null {
  return findExecutable("soffice") ?? findExecutable("libreoffice");
}

/**
 * A fresh profile per run: no shared state between conversions (a second soffice on the same
 * profile would hand its job to the first), and settings that keep documents inert — macros off
 * and "very high" macro security, which also stops links to external files or URLs from being
 * refreshed on load (LibreOffice only auto-updates links at low security or in trusted places).
 */
const PROFILE_SETTINGS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
</oor:items>
`;

/**
 * Converts an office file to `outDir/document.pdf` (render it with `renderPdf`). Without
 * LibreOffice this is not an error: it answers `{ unavailable: true, reason }` for the UI.
 */
export async function convertOffice(
  file: string,
  outDir: string,
  options: ConvertOfficeOptions = {},
): Promise<OfficeConversion> {
  const ext = (options.extension ?? path.extname(file).slice(1)).toLowerCase();
  if (!OFFICE_EXTENSIONS.includes(ext)) throw new MediaError("Document type is not supported", `.${ext || "?"}`);
  const soffice = findSoffice();
  if (!soffice) return { unavailable: true, reason: "Preview unavailable: LibreOffice is not installed" };
  const reason = "Document could not be converted";
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new MediaError(reason, "file not found");
  if (info.size === 0) throw new MediaError(reason, "the file is empty");
  const maxBytes = options.maxBytes ?? 100 * 1024 ** 2;
  if (info.size > maxBytes) throw new MediaError("Document is too large", `${info.size} bytes > ${maxBytes}`);

  const work = await mkdtemp(path.join(os.tmpdir(), "hangar-office-"));
  try {
    const profile = path.join(work, "profile");
    await mkdir(path.join(profile, "user"), { recursive: true });
    await writeFile(path.join(profile, "user", "registrymodifications.xcu"), PROFILE_SETTINGS);
    // A private copy with a plain name: soffice picks its import filter from the extension.
    const input = path.join(work, `input.${ext}`);
    await copyFile(file, input);
    const outTmp = path.join(work, "out");
    await mkdir(outTmp);
    const args = [
      `-env:UserInstallation=${pathToFileURL(profile).href}`,
      ...["--headless", "--invisible", "--nologo", "--nodefault", "--norestore", "--nolockcheck"],
      ...["--convert-to", "pdf", "--outdir", outTmp, input],
    ];
    const { stdout, stderr } = await runTool(soffice, args, {
      timeoutMs: options.timeoutMs ?? 120_000,
      maxOutputBytes: 1 << 20,
      // LibreOffice maps a lot of address space up front; 4 GiB still stops a runaway document.
      memoryBytes: options.memoryBytes ?? 4 * 1024 ** 3,
      // HOME inside the work dir: nothing is written to the service user's home.
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work, LANG: "C.UTF-8", SAL_USE_VCLPLUGIN: "svp" },
      cwd: work,
      reason,
    });
    // soffice exits 0 even when the import failed; the missing PDF is the real signal.
    const produced = (await readdir(outTmp)).find((f) => f.endsWith(".pdf"));
    const pdfSize = produced ? (await stat(path.join(outTmp, produced))).size : 0;
    if (!produced || pdfSize === 0) {
      throw new MediaError(reason, lastLines(`${stderr}\n${stdout}`) || "LibreOffice produced no PDF");
    }
    await mkdir(outDir, { recursive: true });
    const pdfPath = path.join(outDir, "document.pdf");
    await copyFile(path.join(outTmp, produced), pdfPath);
    return { pdfPath };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
