import { UPLOAD_MESSAGES, type UploadPart } from "@hangar/contract";
import { failedAnswer, forEachLimit, isAbort, UploadError, xhrSend } from "./transport";

// Sending bytes to signed URLs: a leaf module (transport only), shared by the members' upload runner
// and the public upload page of a file request without pulling either's other code into the other.
const PART_CONCURRENCY = 4;
export const PART_TRIES = 3;
export const RETRY_BASE_MS = 500;

export const messageOf = (error: unknown) =>
  (error instanceof Error && error.message) || UPLOAD_MESSAGES.failed("unknown");

/** A pause before the next try, cut short (rejected) when the upload is stopped. */
export const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(new DOMException("Upload cancelled", "AbortError"));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal.addEventListener("abort", stop, { once: true });
  });

/** PUTs raw bytes to a signed URL (direct or one part); answers the ETag. */
export async function putBytes(
  url: string,
  body: Blob,
  onProgress: (loaded: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  const answer = await xhrSend({
    method: "PUT",
    url,
    body,
    headers: { "Content-Type": "application/octet-stream" },
    onProgress: (loaded) => onProgress(loaded),
    signal,
  });
  if (!answer.ok) throw failedAnswer(answer);
  if (!answer.etag) throw new UploadError(UPLOAD_MESSAGES.noEtag);
  return answer.etag;
}

/** Sends the parts PART_CONCURRENCY at a time; progress is the sum of every part's bytes sent. */
export async function sendParts(
  file: File,
  parts: readonly UploadPart[],
  report: (loaded: number) => void,
  signal: AbortSignal,
): Promise<Array<{ part_number: number; etag: string }>> {
  const sent = new Map<number, number>();
  const total = () => [...sent.values()].reduce((sum, n) => sum + n, 0);
  const etags: Array<{ part_number: number; etag: string }> = [];
  // One failed part stops the others: the item fails as a whole.
  const local = new AbortController();
  let failure: UploadError | null = null;
  const stop = () => local.abort();
  signal.addEventListener("abort", stop, { once: true });
  try {
    await forEachLimit(parts, PART_CONCURRENCY, async (part) => {
      const blob = file.slice(part.start_byte, part.end_byte + 1);
      for (let attempt = 1; ; attempt++) {
        try {
          const etag = await putBytes(
            part.url,
            blob,
            (loaded) => {
              sent.set(part.part_number, loaded);
              report(total());
            },
            local.signal,
          );
          sent.set(part.part_number, blob.size);
          report(total());
          etags.push({ part_number: part.part_number, etag });
          return;
        } catch (error) {
          sent.set(part.part_number, 0);
          if (isAbort(error)) throw error;
          const retry = error instanceof UploadError && error.transient && attempt < PART_TRIES;
          if (!retry) {
            failure ??=
              error instanceof UploadError && error.message === UPLOAD_MESSAGES.noEtag
                ? error
                : new UploadError(
                    UPLOAD_MESSAGES.partFailed(
                      `(part ${part.part_number} of ${parts.length}): ${messageOf(error).replace(/^Upload failed: /, "")}`,
                    ),
                  );
            local.abort();
            throw failure;
          }
          await wait(RETRY_BASE_MS * 3 ** (attempt - 1), local.signal);
        }
      }
    });
  } catch (error) {
    // Parts stopped by another part's failure reject with AbortError: report that failure instead.
    throw failure ?? error;
  } finally {
    signal.removeEventListener("abort", stop);
  }
  return etags.sort((a, b) => a.part_number - b.part_number);
}
