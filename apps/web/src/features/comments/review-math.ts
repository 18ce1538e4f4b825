import { ANNOTATION_POINT_THRESHOLD, ANNOTATION_POPOVER } from "@hangar/contract";

/** A pointer position as percent of the element's box (its on-screen box, so CSS zoom does not matter). */
export function toPercent(rect: { left: number; top: number; width: number; height: number }, x: number, y: number) {
  const clamp = (v: number) => Math.min(100, Math.max(0, v));
  return {
    x: clamp(((x - rect.left) / (rect.width || 1)) * 100),
    y: clamp(((y - rect.top) / (rect.height || 1)) * 100),
  };
}

export type DrawnShape =
  | { annotation_type: "POINT"; x: number; y: number }
  | { annotation_type: "AREA"; x: number; y: number; width: number; height: number };

const round = (v: number) => Math.round(v * 100) / 100;

/**
 * Spec 02 §4: a drag moving under 1 % both ways is a POINT where it started; otherwise an AREA from
 * the minimum corner with its size. A size is at least 0.01 %, and the corner moves in so the area
 * stays inside the image (the server refuses one that does not): a drag along the right or bottom
 * edge, or a rounding up, would otherwise poke out by a hundredth.
 */
export function shapeOf(start: { x: number; y: number }, end: { x: number; y: number }): DrawnShape {
  const dx = Math.abs(end.x - start.x);
  const dy = Math.abs(end.y - start.y);
  if (dx < ANNOTATION_POINT_THRESHOLD && dy < ANNOTATION_POINT_THRESHOLD)
    return { annotation_type: "POINT", x: round(start.x), y: round(start.y) };
  const width = round(Math.max(dx, 0.01));
  const height = round(Math.max(dy, 0.01));
  return {
    annotation_type: "AREA",
    x: Math.min(round(Math.min(start.x, end.x)), round(100 - width)),
    y: Math.min(round(Math.min(start.y, end.y)), round(100 - height)),
    width,
    height,
  };
}

/**
 * Where the annotation popover goes: beside the anchor (right, else left), its top level with the
 * anchor; where neither side has room (a phone), below the anchor, else above it, centred on it.
 * Then shifted so its 300 × 150 box keeps a 16 px margin inside `area`: the viewport, or on a phone
 * the picture's own area (a box at `left`, `top`), so the popover never sits on the sheet of comments
 * below the picture.
 */
export function popoverPosition(
  anchor: { left: number; top: number; right: number; bottom: number },
  area: { left?: number; top?: number; width: number; height: number },
  size: { width: number; height: number } = ANNOTATION_POPOVER,
): { left: number; top: number } {
  const m = ANNOTATION_POPOVER.margin;
  const gap = 12;
  const x0 = area.left ?? 0;
  const y0 = area.top ?? 0;
  const right = x0 + area.width;
  const bottom = y0 + area.height;
  const fitsRight = anchor.right + gap + size.width + m <= right;
  const fitsLeft = anchor.left - gap - size.width - m >= x0;
  let left = fitsRight ? anchor.right + gap : anchor.left - gap - size.width;
  let top = anchor.top;
  if (!fitsRight && !fitsLeft) {
    left = (anchor.left + anchor.right) / 2 - size.width / 2;
    const below = anchor.bottom + gap;
    const above = anchor.top - gap - size.height;
    top = below + size.height + m <= bottom || above < y0 + m ? below : above;
  }
  left = Math.min(Math.max(x0 + m, left), Math.max(x0 + m, right - size.width - m));
  top = Math.min(Math.max(y0 + m, top), Math.max(y0 + m, bottom - size.height - m));
  return { left, top };
}

/** Splits text into plain runs and the mentions it names ("@First Last"), for highlighting. */
export function mentionRuns(text: string, names: string[]): Array<{ text: string; mention: boolean }> {
  const wanted = [...new Set(names.filter(Boolean))].sort((a, b) => b.length - a.length);
  if (wanted.length === 0) return [{ text, mention: false }];
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`@(${wanted.map(literal).join("|")})`, "g");
  const out: Array<{ text: string; mention: boolean }> = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push({ text: text.slice(last, m.index), mention: false });
    out.push({ text: m[0], mention: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last), mention: false });
  return out;
}

/** The "@query" being typed at the caret, if any (for the member suggestions). */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /(^|\s)@([^\s@]{0,30})$/.exec(before);
  if (!m) return null;
  return { start: caret - m[2]!.length - 1, query: m[2]! };
}

/** "01:05" or "1:02:03" for a video time. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}
