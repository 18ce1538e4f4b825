/**
 * The Download state of spec 01 §4, without React or the DOM so it can be tested as it is:
 * an is-downloading flag and a progress 0–100. Progress is 0 at start; a multipart single-asset
 * download rises after each part; a board or unified (zip) download jumps to 50 when the server
 * answers and to 100 once the browser download is triggered. The flag resets at the end of a
 * single-asset download and ZIP_RESET_DELAY_MS after a zip download.
 */

/** Spec 01 §9: the flag resets this long after a board or unified download. */
export const ZIP_RESET_DELAY_MS = 1000;

export type DownloadKind = "asset" | "board" | "items";

export interface DownloadState {
  isDownloading: boolean;
  progress: number;
  /** What is being downloaded (the panel's label); null when idle. */
  kind: DownloadKind | null;
  label: string | null;
}

export type DownloadEvent =
  | { type: "start"; kind: DownloadKind; label: string }
  | { type: "part"; done: number; total: number }
  | { type: "answered" }
  | { type: "triggered" }
  | { type: "finished" }
  | { type: "reset" };

export const IDLE: DownloadState = { isDownloading: false, progress: 0, kind: null, label: null };

const clamp = (n: number) => Math.max(0, Math.min(100, n));

/** Percent after `done` of `total` parts (a part never goes backwards; no parts at all is done). */
export function partProgress(done: number, total: number): number {
  if (total <= 0) return 100;
  return clamp(Math.round((done / total) * 100));
}

export function downloadReducer(state: DownloadState, event: DownloadEvent): DownloadState {
  switch (event.type) {
    case "start":
      return { isDownloading: true, progress: 0, kind: event.kind, label: event.label };
    case "part":
      if (!state.isDownloading) return state;
      return { ...state, progress: Math.max(state.progress, partProgress(event.done, event.total)) };
    case "answered":
      // Zip downloads only: the server has answered with the zip's address.
      if (!state.isDownloading) return state;
      return { ...state, progress: 50 };
    case "triggered":
      if (!state.isDownloading) return state;
      return { ...state, progress: 100 };
    case "finished":
      // The flag goes down; the progress stays where it got to until the next start.
      return { ...state, isDownloading: false };
    case "reset":
      return IDLE;
  }
}

/** The name of a zip without one from the server: download-{ISO date}.zip (spec 01 §7). */
export function fallbackZipName(now: Date = new Date()): string {
  return `download-${now.toISOString().slice(0, 10)}.zip`;
}

/** The zip's name: the server's, else the fallback. */
export function zipFileName(filename: string | null | undefined, now?: Date): string {
  const name = filename?.trim();
  return name ? name : fallbackZipName(now);
}

/** HTTP Range header of one part (its bytes inclusive at both ends). */
export function rangeHeader(part: { start_byte: number; end_byte: number }): string {
  return `bytes=${part.start_byte}-${part.end_byte}`;
}
