import { type AssetListBody, EXACT_COUNT_LIMIT, SmartBoardFilter } from "@hangar/contract";

/** At most this many assets of one smart board go into a zip (its first by name). */
export const SMART_ZIP_LIMIT = EXACT_COUNT_LIMIT;

const present = (v: unknown) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0);

/**
 * A stored filter as a listing payload, or null when it no longer reads as one (a filter saved under
 * an older schema matches nothing rather than everything).
 */
export function savedFilter(saved: unknown, base: Pick<AssetListBody, "page" | "page_size" | "order_by">) {
  const f = SmartBoardFilter.safeParse(saved);
  return f.success ? ({ ...f.data, ...base } as AssetListBody) : null;
}

/**
 * A smart board's listing (issue 33): the saved filter is the listing's body, so with no conditions of
 * its own the request runs the very plan the same filter sent directly does; the request's own
 * conditions (its board_id aside: that is the smart board) are ANDed in as `also`. They narrow the
 * board, never widen it.
 */
export function smartListing(
  saved: unknown,
  request: AssetListBody,
): { body: AssetListBody; also?: AssetListBody } | null {
  const { page, page_size, order_by, cursor, board_id: _board, ...own } = request;
  const base = { page, page_size, order_by };
  const body = savedFilter(saved, base);
  if (!body) return null;
  const withCursor = cursor === undefined ? body : { ...body, cursor };
  const hasOwn = Object.values(own).some(present);
  return hasOwn ? { body: withCursor, also: { ...own, ...base } as AssetListBody } : { body: withCursor };
}
