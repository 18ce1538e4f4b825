import type { ListingOrder } from "@hangar/contract";
import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router-dom";
import type { AssetFilters } from "../../../entities/asset";
import { type BrowseParams, PARAM, readBrowseParams, writeBrowseParams } from "../../../entities/asset";

/**
 * The grid's search, order and filters, read from and written to the URL. A change makes a new listing
 * query key, so the grid starts again at page 1 (spec 01 §4). Typing in the search box replaces the
 * history entry; a new order or filter set pushes one, so Back undoes it.
 */
export function useBrowseParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  // The grid's own keys only: another parameter changing (the viewer's version, issue 29) leaves the
  // view as it is, so nothing under it renders again.
  const key = [PARAM.search, PARAM.order, PARAM.filters].map((k) => searchParams.get(k) ?? "").join("\n");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the serialised params are the identity
  const params = useMemo(() => readBrowseParams(searchParams), [key]);

  const update = useCallback(
    (patch: Partial<BrowseParams>, replace: boolean) =>
      setSearchParams((current) => writeBrowseParams(current, { ...readBrowseParams(current), ...patch }), {
        replace,
        preventScrollReset: true,
      }),
    [setSearchParams],
  );

  return {
    params,
    setSearch: useCallback((search: string) => update({ search }, true), [update]),
    setOrder: useCallback((order: ListingOrder) => update({ order }, false), [update]),
    setFilters: useCallback((filters: AssetFilters) => update({ filters }, false), [update]),
    /** One update: two in a row would each start from the same (stale) params and the last would win. */
    clearSearchAndFilters: useCallback(() => update({ search: "", filters: {} }, false), [update]),
  };
}
