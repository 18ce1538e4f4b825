/**
 * Text in images (issue 16): English OCR with tesseract.js (MIT) in a worker thread (ocr-worker.ts),
 * fully offline (/work/shared/notes/review-sharing-libraries.md). Images are read by sharp first
 * (EXIF rotation, long side ≤ 2000 px, grey), so the engine only ever sees a small PNG. Words below
 * a confidence of 60 or without a letter or digit are dropped: on photos the engine reads texture as
 * short junk words, and those must not become search text or evidence.
 */
import { createRequire } from "node:module";
import path from "node:path";
import sharp from "sharp";
import { createSerialWorker, MediaError } from "./limits.ts";
import type { OcrRequest, OcrWorkerData, RawWord } from "./ocr-worker.ts";

export interface OcrWord {
  text: string;
  /** 0–100, the engine's own score. */
  confidence: number;
  /** [x0, y0, x1, y1] as fractions (0–1) of the page or image. */
  box: [number, number, number, number];
  /** 1 for an image; the page number for a document. */
  page: number;
}

export interface OcrResult {
  text: string;
  words: OcrWord[];
  ms: number;
}

export interface OcrOptions {
  /** Per image or page (default 30 s). */
  timeoutMs?: number;
  /** Worker start + data load (default 60 s). */
  loadTimeoutMs?: number;
  /** Stop the thread after this long unused (default 5 min). */
  idleMs?: number;
  minConfidence?: number;
}

export interface RecogniseOptions {
  maxSide?: number;
  /** Per file, instead of the reader's own limit. */
  timeoutMs?: number;
  /** A 3×3 median first: removes sensor grain (which the engine reads as thousands of specks), keeps large text. */
  denoise?: boolean;
  /**
   * CPU time the engine may spend per file. A busy machine stretches wall time, not CPU time, so this
   * is the limit that says something about the picture; `timeoutMs` stays as a safety net.
   */
  cpuBudgetMs?: number;
}

export interface Ocr {
  /**
   * Recognises each file as page 1, 2, …; a page that fails is skipped, all failing throws.
   * `maxSide` bounds the long side handed to the engine (default OCR_INPUT_SIDE): its time grows with the area.
   */
  recognise(files: string[], options?: RecogniseOptions): Promise<OcrResult>;
  /** `engineCpuMs`: CPU time the engine's thread has used (null where /proc cannot tell). */
  stats(): Promise<{ rssBytes: number; starts: number; engineCpuMs: number | null }>;
  close(): Promise<void>;
}

export const OCR_FAILED = "Text could not be read";

/**
 * A read stopped by its CPU budget (ocr-worker.ts says OVER_BUDGET) or by the wall-time safety net:
 * worth another try later, with more time, rather than an answer about the picture. Such errors
 * carry `later: true` (TextReader's contract, modules/processing/read-text.ts).
 */
function stoppedByLimit(err: unknown): boolean {
  return /CPU time budget|timed out after/.test((err as Error)?.message ?? "");
}
/** Niceness of the OCR threads: the pipeline (sharp, ffmpeg, PDFium) comes first when cores are busy. */
export const OCR_NICE = 10;
export const OCR_INPUT_SIDE = 2000;
const MAX_INPUT_PIXELS = 150_000_000;
const MAX_TEXT = 50_000;

function langPath(): string {
  const pkg = createRequire(import.meta.url).resolve("@tesseract.js-data/eng/package.json");
  return path.join(path.dirname(pkg), "4.0.0_best_int");
}

async function prepare(
  file: string,
  side: number,
  denoise: boolean,
): Promise<{ data: Uint8Array; width: number; height: number }> {
  try {
    const img = sharp(file, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .timeout({ seconds: 20 })
      .rotate()
      .resize(side, side, { fit: "inside", withoutEnlargement: true });
    const { data, info } = await (denoise ? img.median(3) : img)
      .flatten({ background: "#ffffff" })
      .greyscale()
      .png({ compressionLevel: 1 })
      .toBuffer({ resolveWithObject: true });
    return { data: new Uint8Array(data), width: info.width, height: info.height };
  } catch (err) {
    throw new MediaError(OCR_FAILED, (err as Error).message, { cause: err });
  }
}

/** Keeps readable words, boxes as fractions of the picture. */
export function cleanWords(raw: RawWord[], width: number, height: number, page: number, min: number): OcrWord[] {
  const r4 = (n: number) => Math.round(n * 10_000) / 10_000;
  return (
    raw
      // Single characters only when the engine is sure: texture in photos reads as stray letters.
      .filter(
        (w) => w.confidence >= min && /[\p{L}\p{N}]/u.test(w.text) && (w.text.trim().length > 1 || w.confidence >= 90),
      )
      .map((w) => ({
        text: w.text.trim(),
        confidence: Math.round(w.confidence),
        box: [r4(w.bbox.x0 / width), r4(w.bbox.y0 / height), r4(w.bbox.x1 / width), r4(w.bbox.y1 / height)],
        page,
      }))
  );
}

export function createOcr(options: OcrOptions = {}): Ocr {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const min = options.minConfidence ?? 60;
  const worker = createSerialWorker({
    file: new URL("./ocr-worker.ts", import.meta.url),
    name: "OCR",
    workerData: { langPath: langPath(), nice: OCR_NICE } satisfies OcrWorkerData,
    maxOldGenerationSizeMb: 256,
    idleMs: options.idleMs ?? 5 * 60_000,
    init: {
      message: { op: "init" } satisfies OcrRequest,
      timeoutMs: options.loadTimeoutMs ?? 60_000,
      reason: OCR_FAILED,
    },
  });
  return {
    async recognise(files, opts = {}) {
      const started = performance.now();
      const words: OcrWord[] = [];
      let failures = 0;
      let lastError: unknown = null;
      for (const [i, file] of files.entries()) {
        try {
          const img = await prepare(file, opts.maxSide ?? OCR_INPUT_SIDE, opts.denoise ?? false);
          const request: OcrRequest = { op: "recognise", image: img.data, cpuBudgetMs: opts.cpuBudgetMs };
          const raw = await worker.call<RawWord[]>(request, {
            timeoutMs: opts.timeoutMs ?? timeoutMs,
            reason: OCR_FAILED,
            transfer: [img.data.buffer as ArrayBuffer],
          });
          words.push(...cleanWords(raw, img.width, img.height, i + 1, min));
        } catch (err) {
          // A page stopped by a limit is not unreadable: the whole read is tried again later.
          if (stoppedByLimit(err)) throw Object.assign(err as Error, { later: true });
          failures++;
          lastError = err;
        }
      }
      if (files.length && failures === files.length) throw lastError;
      const text = words
        .map((w) => w.text)
        .join(" ")
        .slice(0, MAX_TEXT);
      return { text, words, ms: Math.round(performance.now() - started) };
    },
    async stats() {
      const s = await worker.call<{ rssBytes: number; engineCpuMs: number | null }>(
        { op: "stats" } satisfies OcrRequest,
        {
          timeoutMs: 10_000,
          reason: OCR_FAILED,
        },
      );
      return { ...s, starts: worker.starts };
    },
    close: () => worker.close(),
  };
}
