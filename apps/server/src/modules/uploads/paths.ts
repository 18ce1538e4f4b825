import { stripBidiControls } from "@hangar/contract";

/**
 * Folder-upload paths come from the browser. Before any segment becomes a board name or a file name:
 * both slash kinds split, `.`/`..`/empty segments go, NUL and control characters go, names are
 * trimmed and capped. Nothing from the path ever reaches a storage key (keys are server-made).
 */
/** NUL, C0 controls and DEL go: they have no place in a board or file name; bidi overrides go too. */
const stripControl = (s: string) =>
  stripBidiControls([...s].filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f).join(""));

export function sanitizePath(raw: string): { boards: string[]; file: string } | null {
  const segments = raw
    .split(/[\\/]+/)
    .map((s) => stripControl(s).trim().slice(0, 200))
    .filter((s) => s !== "" && s !== "." && s !== "..");
  const file = segments.pop();
  if (!file) return null;
  return { boards: segments.slice(0, 20), file };
}

export function extensionOf(name: string): string {
  const m = /\.([A-Za-z0-9]{1,10})$/.exec(name);
  return m?.[1]?.toLowerCase() ?? "";
}
