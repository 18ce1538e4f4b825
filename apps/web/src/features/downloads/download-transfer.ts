import {
  DirectDownloadAnswer,
  DOWNLOAD_MESSAGES,
  type DownloadPart,
  MultipartDownloadAnswer,
  ZipDownloadAnswer,
} from "@hangar/contract";
import type { z } from "zod";
import { answerIs, isText } from "../../lib/answer-check";
import { rangeHeader } from "./download-state";

export class DownloadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DownloadError";
  }
}

type ZipAnswer = z.infer<typeof ZipDownloadAnswer>;
type DirectAnswer = z.infer<typeof DirectDownloadAnswer>;
type PartsAnswer = z.infer<typeof MultipartDownloadAnswer>;

export type ParsedAnswer =
  | { kind: "direct"; url: string; filename: string; mimeType: string }
  | { kind: "parts"; parts: DownloadPart[]; filename: string; mimeType: string; size: number }
  | { kind: "zip"; url: string; filename: string };

/** Which of the three answers the server gave; anything else is "Invalid download response". */
export function parseDownloadAnswer(answer: unknown): ParsedAnswer {
  if (answerIs(ZipDownloadAnswer, answer, (a) => isText(a.download_url) && isText(a.filename))) {
    const zip = answer as ZipAnswer;
    return { kind: "zip", url: zip.download_url, filename: zip.filename };
  }
  if (answerIs(DirectDownloadAnswer, answer, (a) => isText(a.direct_url) && isText(a.filename))) {
    const direct = answer as DirectAnswer;
    return { kind: "direct", url: direct.direct_url, filename: direct.filename, mimeType: direct.mime_type };
  }
  if (answerIs(MultipartDownloadAnswer, answer, (a) => Array.isArray(a.parts) && isText(a.filename))) {
    const parts = answer as PartsAnswer;
    return {
      kind: "parts",
      parts: parts.parts,
      filename: parts.filename,
      mimeType: parts.mime_type,
      size: parts.size,
    };
  }
  throw new DownloadError(DOWNLOAD_MESSAGES.invalidResponse);
}

/** GETs the whole file (a signed direct URL). */
export async function fetchFile(url: string, signal?: AbortSignal): Promise<Blob> {
  let response: Response;
  try {
    // Signed URLs carry their own proof; cookies go only to our own origin (S3 may be another one).
    response = await fetch(url, { credentials: "same-origin", signal });
  } catch (cause) {
    throw new DownloadError(DOWNLOAD_MESSAGES.fileFailed, { cause });
  }
  if (!response.ok) throw new DownloadError(DOWNLOAD_MESSAGES.fileFailed, { cause: response.status });
  return response.blob();
}

/** GETs one part with its Range header; anything but exactly its bytes is a failure of that part. */
export async function fetchPart(part: DownloadPart, signal?: AbortSignal): Promise<Blob> {
  const fail = (cause: unknown) => new DownloadError(DOWNLOAD_MESSAGES.partFailed(part.part_number), { cause });
  let response: Response;
  try {
    response = await fetch(part.url, { headers: { Range: rangeHeader(part) }, credentials: "same-origin", signal });
  } catch (cause) {
    throw fail(cause);
  }
  if (!response.ok) throw fail(response.status);
  const blob = await response.blob().catch((cause: unknown) => {
    throw fail(cause);
  });
  if (blob.size !== part.end_byte - part.start_byte + 1) throw fail(`got ${blob.size} bytes`);
  return blob;
}

/** Parts fetched at once; a few keep the line busy without flooding the server. */
export const PART_CONCURRENCY = 3;

/**
 * Fetches every part (a few at a time, whichever finishes first) and joins them in part_number order
 * into one Blob of `mimeType`. `onPart(done, total)` runs after each part arrives.
 */
export async function downloadParts(
  parts: readonly DownloadPart[],
  mimeType: string,
  options: {
    onPart?: (done: number, total: number) => void;
    fetchPart?: (part: DownloadPart) => Promise<Blob>;
    concurrency?: number;
  } = {},
): Promise<Blob> {
  const get = options.fetchPart ?? ((p: DownloadPart) => fetchPart(p));
  const ordered = [...parts].sort((a, b) => a.part_number - b.part_number);
  const blobs: Blob[] = new Array(ordered.length);
  let next = 0;
  let done = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < ordered.length) {
      const index = next++;
      try {
        blobs[index] = await get(ordered[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
      done += 1;
      options.onPart?.(done, ordered.length);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? PART_CONCURRENCY, ordered.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return new Blob(blobs, { type: mimeType });
}

/** Hands a Blob to the browser as a file download. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  triggerDownload(url, filename);
  // The click has started the download; the URL may go once the browser has taken it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Starts a browser download of `url` (a streamed zip, or an object URL) under `filename`. */
export function triggerDownload(url: string, filename: string): void {
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.rel = "noopener";
  a.style.display = "none";
  document.body.append(a);
  a.click();
  a.remove();
}
