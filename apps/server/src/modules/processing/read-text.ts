import type { Logger } from "pino";

/**
 * OCR (media/ocr.ts): each file is a page; words carry boxes as fractions of their page. An error
 * with `later: true` means a limit (CPU budget, wall-time safety net) stopped the read, not the picture.
 */
export interface TextReader {
  recognise(
    files: string[],
    options?: { maxSide?: number; timeoutMs?: number; denoise?: boolean; cpuBudgetMs?: number },
  ): Promise<{
    text: string;
    words: Array<{ text: string; confidence: number; box: number[]; page: number }>;
    ms: number;
  }>;
  close?(): Promise<void>;
}

export type TextOutcome =
  | {
      status: "done";
      text: string;
      words: Array<{ text: string; confidence: number; box: number[]; page: number }>;
      ms: number;
    }
  | { status: "failed"; error: string };

/** What an asset's text says when it could not be read (the OCR engine's own reason, media/ocr.ts). */
export const TEXT_FAILED = "Text could not be read";

/** OCR reads at most this many pages of a document (the first ones: titles, covers, invoices). */
export const OCR_MAX_PAGES = 10;
/**
 * Photos: a quick look first (800 px, grain removed, a small CPU budget), and the full read (1600 px)
 * only when it saw words. The engine's time grows with what looks like ink: a photo without text
 * costs a fraction of a second at 800 px, while a grainy one could take half a minute at full
 * size (measured: 12 MP of sensor-like noise ran into the 30 s limit at 1600 px).
 */
export const OCR_PROBE = { maxSide: 800, denoise: true };
/** The full read and document pages get this many times the quick look's CPU budget. */
export const FULL_READ_BUDGET_FACTOR = 10;
export const OCR_IMAGE_SIDE = 1600;
/** Document pages (≈1240 px wide) are read whole, always. */
export const OCR_PAGE_SIDE = 2000;

/**
 * A read stopped by its CPU budget or its wall-time safety net: the text stays pending and the job
 * tries again later (with backoff and a larger budget), instead of recording a failure that a busy
 * machine caused (issue 27: half of a bench's photos ended "OCR timed out").
 */
export class TextLater extends Error {
  override name = "TextLater";
}

/** Reads text; a failure is an outcome to record, never an error of the asset; a read over budget is TextLater. */
export async function readText(
  reader: TextReader,
  files: string[],
  kind: "image" | "pages",
  log: Logger,
  /** CPU time of the quick look, in ms (the full read gets FULL_READ_BUDGET_FACTOR times it); null: none. */
  cpuMs: number | null = null,
): Promise<TextOutcome> {
  const probeBudget = cpuMs === null ? {} : { cpuBudgetMs: cpuMs };
  const fullBudget = cpuMs === null ? {} : { cpuBudgetMs: cpuMs * FULL_READ_BUDGET_FACTOR };
  try {
    if (kind === "pages")
      return { status: "done", ...(await reader.recognise(files, { maxSide: OCR_PAGE_SIDE, ...fullBudget })) };
    const probe = await reader.recognise(files, { ...OCR_PROBE, ...probeBudget });
    if (probe.words.length === 0) return { status: "done", ...probe };
    const full = await reader.recognise(files, { maxSide: OCR_IMAGE_SIDE, ...fullBudget });
    return { status: "done", ...full, ms: probe.ms + full.ms };
  } catch (err) {
    // The last try (no budget) records even a timeout: an asset's text never stays pending forever.
    if (cpuMs !== null && (err as { later?: boolean }).later) throw new TextLater((err as Error).message);
    log.warn({ err: { message: (err as Error).message } }, "OCR failed");
    return { status: "failed", error: (err as { reason?: string }).reason ?? TEXT_FAILED };
  }
}
