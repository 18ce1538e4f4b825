import type { Asset } from "@hangar/contract";

type Pages = readonly { data: readonly Asset[] }[];

/**
 * The grid's assets: every loaded page's, in order, each asset once (a page boundary can shift while
 * pages load — an upload lands — and the same asset come again). A scroll adds one page at a time to
 * pages it already has (the query keeps unchanged pages as the same objects), so only the new pages are
 * looked at: flattening all of them again at every page made a scroll through 100,000 assets
 * quadratic. Any other change (a refetch, an edit within a page) starts over.
 */
export interface LoadedAssets {
  pages: Pages;
  assets: Asset[];
  ids: string[];
  /**
   * Where each id went in `ids`. Shared along a scroll and only added to, so an entry may come from
   * a computation React threw away: it counts only if `ids` holds that id at that place.
   */
  at: Map<string, number>;
}

export const NO_ASSETS: LoadedAssets = { pages: [], assets: [], ids: [], at: new Map() };

export function loadedAssets(prev: LoadedAssets, pages: Pages): LoadedAssets {
  if (pages === prev.pages) return prev;
  const extended =
    prev.pages.length > 0 && pages.length > prev.pages.length && prev.pages.every((p, i) => p === pages[i]);
  const base = extended ? prev : NO_ASSETS;
  // New arrays, so that whoever holds the old ones sees a change.
  const assets = base.assets.slice();
  const ids = base.ids.slice();
  const at = extended ? prev.at : new Map<string, number>();
  for (const page of pages.slice(base.pages.length))
    for (const a of page.data) {
      const i = at.get(a.id);
      if (i !== undefined && ids[i] === a.id) continue;
      at.set(a.id, ids.length);
      ids.push(a.id);
      assets.push(a);
    }
  return { pages, assets, ids, at };
}
