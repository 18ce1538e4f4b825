import { MIB, type UploadDuplicate } from "@hangar/contract";
import { uploadStore } from "./upload-store";

/**
 * Duplicates at upload (issue 29): the file's SHA-256 goes with the upload's start, and when the
 * answer names the same bytes already in the workspace the upload waits for the user's choice:
 * keep both, add it as a new version of that asset instead, or skip it.
 */

/**
 * Files up to this size are hashed before their start (WebCrypto digests a file read whole into
 * memory); larger ones go without, and the server still finds a duplicate when they complete.
 */
export const HASH_MAX_BYTES = 256 * MIB;

/** The file's SHA-256 in hex, or null when it is not worth it (too big, no WebCrypto outside https). */
export async function sha256Of(file: Blob, signal?: AbortSignal): Promise<string | null> {
  // WebCrypto's digest is a secure context's (https, localhost); a plain-http address goes without.
  const subtle = globalThis.isSecureContext === true ? globalThis.crypto?.subtle : undefined;
  if (!subtle || file.size > HASH_MAX_BYTES) return null;
  try {
    const digest = await subtle.digest("SHA-256", await file.arrayBuffer());
    signal?.throwIfAborted();
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  } catch (error) {
    if (signal?.aborted) throw error;
    return null; // the look-up is a courtesy: an unreadable hash never stops the upload
  }
}

export type DuplicateChoice = { kind: "keep" } | { kind: "skip" } | { kind: "version"; of: UploadDuplicate };

const waiting = new Map<string, (choice: DuplicateChoice) => void>();

/** The duplicates worth telling about: live ones first (a deleted one can only be kept beside). */
export const shownDuplicates = (list: readonly UploadDuplicate[]) =>
  [...list].sort((a, b) => Number(a.deleted) - Number(b.deleted));

/** Shows the duplicates on the item and waits for the user's choice (rejects when the upload is stopped). */
export function askDuplicate(id: string, duplicates: readonly UploadDuplicate[], signal: AbortSignal) {
  uploadStore.patch(id, { duplicates: shownDuplicates(duplicates) });
  return new Promise<DuplicateChoice>((resolve, reject) => {
    const stop = () => {
      waiting.delete(id);
      uploadStore.patch(id, { duplicates: null });
      reject(new DOMException("Upload cancelled", "AbortError"));
    };
    if (signal.aborted) return stop();
    signal.addEventListener("abort", stop, { once: true });
    waiting.set(id, (choice) => {
      signal.removeEventListener("abort", stop);
      waiting.delete(id);
      uploadStore.patch(id, { duplicates: null });
      resolve(choice);
    });
  });
}

/** The user's answer for an item waiting on its duplicates. */
export function answerDuplicate(id: string, choice: DuplicateChoice): void {
  waiting.get(id)?.(choice);
}

/** "Launch", "Launch, Archive", "Launch and 2 more boards", "All assets", or "Recently deleted". */
export function whereIs(duplicate: UploadDuplicate): string {
  if (duplicate.deleted) return "Recently deleted";
  const names = duplicate.boards.map((b) => b.name);
  if (names.length === 0) return "All assets";
  if (names.length <= 2) return names.join(", ");
  return `${names[0]} and ${names.length - 1} more boards`;
}
