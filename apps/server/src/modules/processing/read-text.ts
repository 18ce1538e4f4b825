import type { Logger } from "pino";

/** OCR (media/ocr.ts): each file is a page; words carry boxes as fractions of their page. */
export interface TextReader {
  recognise(
    files: string[],
    options?: { maxSide?: number; timeoutMs?: number; denoise?: boolean },
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
 * Photos: a quick look first (800 px, grain removed, 3 s at most), and the full read (1600 px)
 * only when it saw words. The engine's time grows with what looks like ink: a photo without text
 * costs a fraction of a second at 800 px, while a grainy one could take half a minute at full
 * size (measured: 12 MP of sensor-like noise ran into the 30 s limit at 1600 px).
 */
export const OCR_PROBE = { maxSide: 800, denoise: true, timeoutMs: 3_000 };
export const OCR_IMAGE_SIDE = 1600;
/** Document pages (≈1240 px wide) are read whole, always. */
export const OCR_PAGE_SIDE = 2000;

/** Reads text; a failure or timeout is an outcome to record, never an error of the asset. */
export async function readText(
  reader: TextReader,
  files: string[],
  kind: "image" | "pages",
  log: Logger,
): Promise<TextOutcome> {
  try {
    if (kind === "pages") return { status: "done", ...(await reader.recognise(files, { maxSide: OCR_PAGE_SIDE })) };
    const probe = await reader.recognise(files, OCR_PROBE);
    if (probe.words.length === 0) return { status: "done", ...probe };
    const full = await reader.recognise(files, { maxSide: OCR_IMAGE_SIDE });
    return { status: "done", ...full, ms: probe.ms + full.ms };
  } catch (err) {
    log.warn({ err: { message: (err as Error).message } }, "OCR failed");
    return { status: "failed", error: (err as { reason?: string }).reason ?? TEXT_FAILED };
  }
}
