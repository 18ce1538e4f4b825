import { type Asset, COMMENT_LINK_PARAM as COMMENT_PARAM, type SmartBoardFilter } from "@hangar/contract";
import { Button, Stack } from "@mantine/core";
import { IconPhotoSearch, IconSearchOff } from "@tabler/icons-react";
import { type MouseEvent, type ReactNode, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useLocation, useNavigate, useParams } from "react-router-dom";
import { hasFilters, useAssetList } from "../../../entities/asset";
import { withoutVersionParams } from "../../../entities/version";
import { selectionStore, useSelection } from "../../../entities/workspace";
import { errorMessage } from "../../../lib/api-client";
import { lazyNamed, WhenOpened } from "../../../lib/deferred";
import { useReturnFocus } from "../../../lib/focus-return";
import { notifyError } from "../../../lib/notify";
import { EmptyPanel } from "../../../ui/empty-panel";
import { ErrorState } from "../../../ui/error-state";
import { uploadNewVersion } from "../../uploads";
import { AssetCardMenu } from "../actions/asset-card-menu";
import { BulkBar } from "../actions/bulk-bar";
import { ActiveFilterChips } from "../filters/active-filter-chips";
import { filterChips } from "../filters/filter-chips";
import { SimilarBanner } from "../filters/similar-banner";
import { AssetGrid, AssetGridSkeleton, cardOf } from "../grid/asset-grid";
import { clickOutcome, isAssetBulkMode, selectAll } from "../grid/selection";
import { AssetToolbar } from "./asset-toolbar";
import { loadedAssets, NO_ASSETS } from "./loaded-assets";
import { useBrowseParams } from "./use-browse-params";

// Opened on demand: neither is part of the grid's first load.
const FilterDrawer = lazyNamed(() => import("../filters/filter-drawer"), "FilterDrawer");
const SaveSmartBoardDialog = lazyNamed(() => import("../filters/save-smart-board-dialog"), "SaveSmartBoardDialog");
const AssetViewer = lazyNamed(() => import("../../viewer"), "AssetViewer");
const NO_PAGES: readonly { data: readonly Asset[] }[] = [];

/** History state of an address opened from the grid: closing the preview goes back instead of forward. */
interface PreviewState {
  fromGrid?: boolean;
  /** The viewer's sidebar tab to reopen (after switching boards from the boards tab). */
  viewerTab?: "boards";
}

/**
 * Search, sort, filters, the virtualised grid, selection and the bulk bar, and the preview of the
 * asset in the address — for All assets (`boardId` null) and for one board. Everything that defines
 * the view is in the URL; the selection is in the selection store.
 */
export function AssetBrowser({
  workspaceId,
  boardId,
  boardName = null,
  empty,
  smart = false,
  canSaveSmart = false,
}: {
  workspaceId: string;
  boardId: string | null;
  /** Shown in the viewer's header. */
  boardName?: string | null;
  /** Shown when there is nothing at all (no search or filter narrowing it). */
  empty: ReactNode;
  /** A smart board (issue 33): the URL's filters narrow its saved one; nothing is saved from here. */
  smart?: boolean;
  /** The filter builder offers "Save as smart board" (editors). */
  canSaveSmart?: boolean;
}) {
  const { params, setSearch, setOrder, setFilters, clearSearchAndFilters } = useBrowseParams();
  const { assetId = null } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // "Save as smart board": the filters as applied, the search box and, on a board, that board.
  const [savingSmart, setSavingSmart] = useState<SmartBoardFilter | null>(null);
  // `?comment=` (a mention's e-mail) is for the viewer it opens: the grid's addresses leave it out.
  const { search, commentId } = useMemo(() => {
    const query = new URLSearchParams(location.search);
    const id = query.get(COMMENT_PARAM);
    query.delete(COMMENT_PARAM);
    const rest = query.toString();
    return { search: rest ? `?${rest}` : "", commentId: id };
  }, [location.search]);

  const view = useMemo(
    () => ({ boardId, search: params.search.trim(), order: params.order, filters: params.filters }),
    [boardId, params],
  );
  const list = useAssetList(workspaceId, view);
  // Each asset once, in order; a scroll's next page reads only that page (loaded-assets.ts).
  const loaded = useRef(NO_ASSETS);
  const { assets, ids: order } = useMemo(() => {
    loaded.current = loadedAssets(loaded.current, list.data?.pages ?? NO_PAGES);
    return loaded.current;
  }, [list.data]);

  const selected = useSelection((s) => s.selectedAssetIds);
  const selectedSet = useMemo(() => new Set(selected), [selected]);

  // A new search, filter or order is a new list: what was selected may not be in it any more.
  const viewKey = JSON.stringify(view);
  const firstView = useRef(viewKey);
  useEffect(() => {
    if (viewKey !== firstView.current) {
      firstView.current = viewKey;
      selectionStore.setSelectedAssets([]);
    }
  }, [viewKey]);

  const gridPath = boardId ? `/w/${workspaceId}/b/${boardId}` : `/w/${workspaceId}/b/all`;
  // The grid's own parameters: the viewer's version (issue 29) belongs to the asset it was shown on,
  // as the mention's comment does.
  const gridSearch = withoutVersionParams(search);
  const assetPath = useCallback(
    (id: string) => (boardId ? `/w/${workspaceId}/b/${boardId}/a/${id}` : `/w/${workspaceId}/a/${id}`),
    [workspaceId, boardId],
  );
  // The address changes; the grid stays mounted underneath (a child route), so nothing reloads.
  const openAsset = useCallback(
    (id: string) => {
      // A double-click's first click has opened it already: one history entry, not two.
      if (window.location.pathname === assetPath(id)) return;
      navigate(
        { pathname: assetPath(id), search: gridSearch },
        { state: { fromGrid: true } satisfies PreviewState, preventScrollReset: true },
      );
    },
    [navigate, assetPath, gridSearch],
  );
  const fromGrid = !!(location.state as PreviewState | null)?.fromGrid;
  // The viewer closing puts focus on the card of the asset it showed last (stepping moves it), else
  // back on what opened it: the keyboard user is where they were in the grid (issue 35).
  const lastShown = useRef(assetId);
  if (assetId) lastShown.current = assetId;
  useReturnFocus(!!assetId, () => cardOf(lastShown.current));
  // Spec 02 §2: a dialog opened from the grid goes back to it; a page opened by its address closes to
  // the board, or to the workspace home when there is no board.
  const closePreview = useCallback(() => {
    // Spec 02 §4: closing the viewer clears the selected assets too.
    selectionStore.setSelectedAssets([]);
    if (fromGrid) navigate(-1);
    else
      navigate(
        { pathname: boardId ? gridPath : `/w/${workspaceId}`, search: boardId ? gridSearch : "" },
        { replace: true, preventScrollReset: true },
      );
  }, [navigate, fromGrid, boardId, gridPath, workspaceId, gridSearch]);
  const switchBoard = useCallback(
    (target: string | null) => {
      if (!assetId) return;
      const pathname = target ? `/w/${workspaceId}/b/${target}/a/${assetId}` : `/w/${workspaceId}/a/${assetId}`;
      const state: PreviewState = { ...(location.state as PreviewState | null), viewerTab: "boards" };
      navigate({ pathname }, { replace: true, state, preventScrollReset: true });
    },
    [navigate, workspaceId, assetId, location.state],
  );
  const stepPreview = useCallback(
    (id: string) =>
      navigate(
        { pathname: assetPath(id), search: gridSearch },
        { replace: true, state: location.state, preventScrollReset: true },
      ),
    [navigate, assetPath, gridSearch, location.state],
  );

  const handlers = {
    onCardClick: (index: number, event: MouseEvent) => {
      const id = order[index];
      if (!id) return;
      const s = selectionStore.getState();
      const out = clickOutcome(
        { selected: s.selectedAssetIds, anchor: s.assetAnchorId },
        order,
        id,
        { range: event.shiftKey, toggle: event.ctrlKey || event.metaKey },
        isAssetBulkMode(s.selectedAssetIds.length, s.selectedBoardIds.length),
      );
      selectionStore.setSelectedAssets(out.selected, out.anchor);
      if (out.open) openAsset(id);
    },
    onOpen: (index: number) => {
      const id = order[index];
      if (id) openAsset(id);
    },
    onToggle: (index: number) => {
      const id = order[index];
      if (id) selectionStore.toggleAsset(id);
    },
    onFocusCard: () => {},
    // Issue 29: a file dropped on a card is that asset's new version.
    onDropFiles: (index: number, files: File[]) => {
      const asset = assets[index];
      if (!asset || files.length === 0) return;
      if (files.length > 1) return notifyError("Drop one file on an asset to add it as a new version.");
      void uploadNewVersion(files[0]!, { workspaceId, assetId: asset.id, name: asset.name });
    },
  };

  // Stable across pages (the toolbar and the grid keep their props while a scroll loads more).
  const orderRef = useRef(order);
  orderRef.current = order;
  const onSelectAll = useCallback(() => {
    const all = selectAll(orderRef.current);
    selectionStore.setSelectedAssets(all.selected, all.anchor);
  }, []);
  const openFilters = useCallback(() => setDrawerOpen(true), []);
  const clearSelection = useCallback(() => selectionStore.setSelectedAssets([]), []);

  // Escape clears the selection, unless a dialog, drawer, menu or the preview has it.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented || assetId) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('[role="dialog"], [role="menu"], [role="listbox"], input, textarea')) return;
      if (selectionStore.getState().selectedAssetIds.length) selectionStore.setSelectedAssets([]);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [assetId]);

  // A smart board files nothing: its cards and bulk bar act as All assets' do (no "Remove from board").
  const filedIn = smart ? null : boardId;
  const renderMenu = useCallback(
    (asset: Asset) => <AssetCardMenu workspaceId={workspaceId} boardId={filedIn} asset={asset} />,
    [workspaceId, filedIn],
  );
  // A second ask while the next page is on its way joins it: by default it would cancel that request
  // and send it again (a render between the ask and the query's "fetching" state asked page 2 twice).
  const loadMore = useCallback(() => void list.fetchNextPage({ cancelRefetch: false }), [list.fetchNextPage]);

  const narrowed = view.search !== "" || hasFilters(view.filters);
  const index = assetId ? order.indexOf(assetId) : -1;

  let content: ReactNode;
  if (list.isPending) {
    content = <AssetGridSkeleton />;
  } else if (list.isError && !list.data) {
    content = (
      <ErrorState
        title="Assets unavailable"
        message={errorMessage(list.error, "Failed to fetch assets")}
        onRetry={() => list.refetch()}
        retrying={list.isFetching}
      />
    );
  } else if (assets.length === 0 && !list.isPlaceholderData) {
    content = view.filters.similar_to ? (
      <EmptyPanel
        testId="similar-empty"
        icon={<IconPhotoSearch size={28} />}
        title="Nothing looks alike"
        description="No other asset looks like this one within these filters. Loosen “How alike” or clear other filters."
      />
    ) : narrowed ? (
      <EmptyPanel
        testId="assets-no-match"
        icon={<IconSearchOff size={28} />}
        title="No assets match"
        description="Nothing here matches this search and these filters."
        action={
          <Button variant="light" onClick={clearSearchAndFilters}>
            Clear search and filters
          </Button>
        }
      />
    ) : (
      empty
    );
  } else {
    content = (
      <AssetGrid
        assets={assets}
        selectedIds={selectedSet}
        hasMore={!!list.hasNextPage}
        fetchingMore={list.isFetchingNextPage}
        loadMoreFailed={list.isFetchNextPageError}
        onLoadMore={loadMore}
        handlers={handlers}
        onSelectAll={onSelectAll}
        renderMenu={renderMenu}
        dimmed={list.isPlaceholderData}
      />
    );
  }

  return (
    <Stack gap="md" data-testid="asset-browser">
      <AssetToolbar
        search={params.search}
        order={params.order}
        onSearch={setSearch}
        onOrder={setOrder}
        activeFilters={filterChips(params.filters).length}
        onOpenFilters={openFilters}
        pagination={list.isPlaceholderData ? undefined : list.data?.pages[0]?.pagination}
        nothingLoaded={assets.length === 0}
        onSelectAll={onSelectAll}
        workspaceId={workspaceId}
        similar={!!params.filters.similar_to}
      />
      <SimilarBanner workspaceId={workspaceId} filters={params.filters} onChange={setFilters} />
      <ActiveFilterChips workspaceId={workspaceId} filters={params.filters} onChange={setFilters} />
      {content}
      <BulkBar workspaceId={workspaceId} boardId={filedIn} assetIds={selected as string[]} onClear={clearSelection} />
      <WhenOpened open={drawerOpen}>
        <FilterDrawer
          opened={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          workspaceId={workspaceId}
          value={params.filters}
          onApply={setFilters}
          onSaveAsSmart={
            canSaveSmart && !smart
              ? (filters) => {
                  setFilters(filters);
                  setDrawerOpen(false);
                  const search = params.search.trim();
                  setSavingSmart({
                    ...(filters as SmartBoardFilter),
                    ...(search ? { search } : {}),
                    ...(boardId ? { board_id: boardId } : {}),
                  });
                }
              : undefined
          }
        />
      </WhenOpened>
      <WhenOpened open={savingSmart !== null}>
        <SaveSmartBoardDialog
          opened={savingSmart !== null}
          onClose={() => setSavingSmart(null)}
          workspaceId={workspaceId}
          filter={savingSmart ?? {}}
          defaultParent={boardId}
        />
      </WhenOpened>
      {assetId && (
        <Suspense fallback={null}>
          <AssetViewer
            workspaceId={workspaceId}
            assetId={assetId}
            boardId={boardId}
            boardName={boardName}
            mode={fromGrid ? "modal" : "page"}
            onClose={closePreview}
            onStep={stepPreview}
            onSwitchBoard={switchBoard}
            previous={index > 0 ? (assets[index - 1] ?? null) : null}
            next={index >= 0 ? (assets[index + 1] ?? null) : null}
            initialTab={(location.state as PreviewState | null)?.viewerTab ?? null}
            commentId={commentId}
          />
        </Suspense>
      )}
    </Stack>
  );
}
