/**
 * What a click on an asset card does to the selection (pure; the grid applies the answer to the
 * selection store). Spec 01 §4: asset bulk mode applies when more than one asset is selected, or at
 * least one asset and at least one board. One convention everywhere: a plain click opens the asset and
 * leaves the selection alone (it only becomes the anchor for a later Shift-click); the checkbox,
 * Ctrl/Cmd-click and Shift-click select. Once several are selected (bulk mode), a plain click adds or
 * removes, as people expect while picking.
 */

export interface SelectionSnapshot {
  selected: readonly string[];
  anchor: string | null;
}

export interface ClickModifiers {
  /** Shift: select the range from the anchor. */
  range: boolean;
  /** Ctrl (Cmd on macOS): toggle one asset, or add a range to the selection instead of replacing it. */
  toggle: boolean;
}

export interface ClickOutcome extends SelectionSnapshot {
  /** Open the asset (its preview). */
  open: boolean;
}

export function isAssetBulkMode(assetCount: number, boardCount: number): boolean {
  return assetCount > 1 || (assetCount >= 1 && boardCount >= 1);
}

/** The ids from `from` to `to` inclusive, in grid order, whichever comes first; [to] when `from` is not shown. */
export function rangeBetween(order: readonly string[], from: string | null, to: string): string[] {
  const end = order.indexOf(to);
  if (end < 0) return [];
  const start = from === null ? -1 : order.indexOf(from);
  if (start < 0) return [to];
  const [lo, hi] = start <= end ? [start, end] : [end, start];
  return order.slice(lo, hi + 1);
}

function union(a: readonly string[], b: readonly string[]): string[] {
  const seen = new Set(a);
  return [...a, ...b.filter((id) => !seen.has(id))];
}

/**
 * `order`: the ids of the loaded cards in grid order. `bulkMode`: isAssetBulkMode of the current
 * selection (boards included).
 */
export function clickOutcome(
  current: SelectionSnapshot,
  order: readonly string[],
  id: string,
  mods: ClickModifiers,
  bulkMode: boolean,
): ClickOutcome {
  if (mods.range) {
    const range = rangeBetween(order, current.anchor, id);
    // The anchor stays put, so a second Shift-click re-draws the range from the same card.
    const anchor = current.anchor !== null && order.includes(current.anchor) ? current.anchor : id;
    return { selected: mods.toggle ? union(current.selected, range) : range, anchor, open: false };
  }
  if (mods.toggle || bulkMode) {
    const selected = current.selected.includes(id)
      ? current.selected.filter((x) => x !== id)
      : [...current.selected, id];
    return { selected, anchor: id, open: false };
  }
  return { selected: [...current.selected], anchor: id, open: true };
}

/** Ctrl/Cmd-A and "Select all": every loaded card (what is not loaded yet cannot be seen or acted on). */
export function selectAll(order: readonly string[]): SelectionSnapshot {
  return { selected: [...order], anchor: order[0] ?? null };
}
