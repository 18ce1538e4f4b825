import { type ListingOrder, SIMILAR_DISTANCE_DEFAULT } from "@hangar/contract";
import { checkFilters } from "./filter-check";
import { type AssetFilters, defaultOrderFor, isListingOrder, orderFor, pruneFilters } from "./filter-model";

/**
 * The grid's state lives in the URL (DESIGN §3), so a link or a reload shows the same view:
 *   q     the search box
 *   sort  order_by, when not the default (-date_uploaded; nearest first while filtered by similar_to)
 *   f     the filter builder's keys: JSON, base64url-encoded (compact, and no escaping trouble in links)
 * Other parameters are left alone.
 */
export interface BrowseParams {
  search: string;
  order: ListingOrder;
  filters: AssetFilters;
}

export const PARAM = { search: "q", order: "sort", filters: "f" } as const;

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): string {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** "" when there is no filter. */
export function encodeFilters(filters: AssetFilters): string {
  const pruned = pruneFilters(filters);
  return Object.keys(pruned).length ? toBase64Url(JSON.stringify(pruned)) : "";
}

/** A hand-edited or outdated `f` that does not parse or validate is ignored rather than sent (and refused). */
export function decodeFilters(encoded: string | null): AssetFilters {
  if (!encoded) return {};
  try {
    const checked = checkFilters(JSON.parse(fromBase64Url(encoded)));
    return checked ? pruneFilters(checked as AssetFilters) : {};
  } catch {
    return {};
  }
}

export function readBrowseParams(params: URLSearchParams): BrowseParams {
  const sort = params.get(PARAM.order);
  const filters = decodeFilters(params.get(PARAM.filters));
  return {
    search: params.get(PARAM.search) ?? "",
    order: orderFor(isListingOrder(sort) ? sort : null, filters),
    filters,
  };
}

/** `params` with the grid's keys replaced by `next` (defaults and empties left out). */
export function writeBrowseParams(params: URLSearchParams, next: BrowseParams): URLSearchParams {
  const out = new URLSearchParams(params);
  const search = next.search.trim() ? next.search : "";
  const encoded = encodeFilters(next.filters);
  const order = orderFor(next.order, next.filters);
  for (const [key, value] of [
    [PARAM.search, search],
    [PARAM.order, order === defaultOrderFor(next.filters) ? "" : order],
    [PARAM.filters, encoded],
  ] as const) {
    if (value) out.set(key, value);
    else out.delete(key);
  }
  return out;
}

/**
 * "Find similar" (issue 32): All assets filtered to what looks like `assetId` (the contract's default
 * distance unless given), as a path with its query; the viewer and the card menu both open it.
 */
export function similarPath(workspaceId: string, assetId: string, maxDistance = SIMILAR_DISTANCE_DEFAULT): string {
  const f = encodeFilters({ similar_to: { asset_id: assetId, max_distance: maxDistance } });
  return `/w/${workspaceId}/b/all?${PARAM.filters}=${f}`;
}
