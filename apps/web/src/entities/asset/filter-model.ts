import { type AssetListInput, LISTING_ORDERS, LISTING_PAGE_SIZE_DEFAULT, type ListingOrder } from "@hangar/contract";

/**
 * The filter builder's part of a listing body: every key of spec 01 §3's filter payload except the
 * search box, paging, order and board, which have their own controls. Semantics live in the contract
 * (packages/contract/src/listing.ts).
 */
export type AssetFilters = Omit<AssetListInput, "search" | "page" | "page_size" | "order_by" | "board_id">;

export const DEFAULT_ORDER: ListingOrder = "-date_uploaded";
/** Nearest first: the listing's `distance`, which needs `similar_to` (issue 32). */
export const NEAREST_ORDER: ListingOrder = "distance";

/** The grid's order when none is chosen: nearest first while filtered by `similar_to`, else newest uploaded. */
export const defaultOrderFor = (filters: AssetFilters): ListingOrder =>
  filters.similar_to ? NEAREST_ORDER : DEFAULT_ORDER;

/** `order` if the filters allow it (nearest first needs `similar_to`), else their default. */
export const orderFor = (order: ListingOrder | null, filters: AssetFilters): ListingOrder =>
  order && (order !== NEAREST_ORDER || filters.similar_to) ? order : defaultOrderFor(filters);
/** Spec 01 §9: 20 a page in the filter builder's view, the listing default (10) otherwise. */
export const FILTERED_PAGE_SIZE = 20;

export const isListingOrder = (value: string | null): value is ListingOrder =>
  value !== null && (LISTING_ORDERS as readonly string[]).includes(value);

function prune(value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value.trim() === "" ? undefined : value;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value)) {
    const items = value.map(prune).filter((v) => v !== undefined);
    return items.length ? items : undefined;
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => [k, prune(v)] as const)
      .filter(([, v]) => v !== undefined);
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return value;
}

/**
 * Drops what adds no condition: empty strings, lists and groups, unset numbers (spec 01 §5: filter
 * groups are sent only when non-empty). `false` stays: it is a condition ("not favourites").
 */
export function pruneFilters(filters: AssetFilters): AssetFilters {
  return (prune(filters) as AssetFilters | undefined) ?? {};
}

export const hasFilters = (filters: AssetFilters) => Object.keys(pruneFilters(filters)).length > 0;

/** The listing body for one page of the grid. */
export function listingBody(
  input: { search: string; order: ListingOrder; filters: AssetFilters; boardId: string | null },
  page: number,
): AssetListInput {
  const filters = pruneFilters(input.filters);
  const search = input.search.trim();
  return {
    ...filters,
    ...(search ? { search } : {}),
    ...(input.boardId ? { board_id: input.boardId } : {}),
    order_by: orderFor(input.order, filters),
    page,
    page_size: Object.keys(filters).length > 0 ? FILTERED_PAGE_SIZE : LISTING_PAGE_SIZE_DEFAULT,
  };
}

type Path = readonly (string | number)[];

/** An immutable deep set; `undefined` deletes the key. Missing objects on the way are created. */
export function setIn<T>(root: T, path: Path, value: unknown): T {
  if (path.length === 0) return value as T;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const base: unknown = root ?? (typeof head === "number" ? [] : {});
  if (Array.isArray(base)) {
    const copy = [...base];
    copy[head as number] = setIn(copy[head as number], rest, value);
    return copy as T;
  }
  const copy = { ...(base as Record<string, unknown>) };
  const next = setIn(copy[head as string], rest, value);
  if (next === undefined) delete copy[head as string];
  else copy[head as string] = next;
  return copy as T;
}

export function getIn(root: unknown, path: Path): unknown {
  let at: unknown = root;
  for (const key of path) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}
