import type { Asset, AssetListAnswer } from "@hangar/contract";
import { type InfiniteData, isCancelledError, type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { type AssetListView, assetKeys, assetQuery } from "../../entities/asset";
import { type LiveListener, type LiveSignal, liveConnected, subscribeLive, watchLive } from "../../lib/live-events";
import { commentKeys } from "./api";

/** Hears the workspace's live events while mounted (the latest `listener` is called). */
export function useLiveEvents(workspaceId: string | null | undefined, listener: LiveListener) {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    if (!workspaceId) return;
    return subscribeLive(workspaceId, (e) => latest.current(e));
  }, [workspaceId]);
}

/** Whether the workspace's stream is open now (false while it reconnects, or before it is used). */
export function useLiveConnected(workspaceId: string | null | undefined): boolean {
  return useSyncExternalStore(
    (cb) => (workspaceId ? watchLive(workspaceId, cb) : () => {}),
    () => (workspaceId ? liveConnected(workspaceId) : false),
  );
}

/** Keeps the viewer's asset, its comments and the grids behind fresh as the workspace's events arrive. */
export function useLiveAsset(workspaceId: string | null, assetId: string) {
  const queryClient = useQueryClient();
  useLiveEvents(workspaceId, (signal) => {
    if (workspaceId) void applyLiveSignal(queryClient, workspaceId, assetId, signal);
  });
}

/** Statuses that end processing: the asset joins the listings then (is_temp false), with its AI tags. */
const SETTLED = new Set(["COMPLETED", "error"]);

/**
 * What one live event makes stale (docs/architecture.md §4.3: events carry ids only, the client refetches), and
 * only that:
 * - a comment: the asset's top-level comments, and a reply's thread. A thread opened, resolved or
 *   deleted (a top-level comment's created, resolved or deleted) also changes the asset's open-thread
 *   count: the asset is fetched once and its card updated in every grid that shows it; the grids
 *   filtered on open comments are refetched, since the asset may enter or leave them.
 * - an asset's status: the asset, and, when processing has ended, the listings (the asset joins
 *   them, with its tags); a status on the way (uploading, processing) is a temporary asset's, which no
 *   grid lists, unless one does (it is updated in place then).
 * - an asset's versions (`asset.version`): the asset (with its versions list), the listings and its comments.
 * - `resync` (events may have been missed): the shown asset, its comments and the listings.
 * `shownAssetId` is the asset on screen (the viewer's).
 */
export async function applyLiveSignal(
  queryClient: QueryClient,
  workspaceId: string,
  shownAssetId: string,
  signal: LiveSignal,
): Promise<void> {
  if (signal.type === "resync") {
    void queryClient.invalidateQueries({ queryKey: commentKeys.asset(workspaceId, shownAssetId) });
    void queryClient.invalidateQueries({ queryKey: assetKeys.detail(workspaceId, shownAssetId), exact: true });
    void queryClient.invalidateQueries({ queryKey: assetKeys.all(workspaceId) });
    return;
  }
  // Approvals' events (issue 30) are the reviews feature's to hear.
  if (signal.type === "review.decision" || signal.type === "review.asset" || signal.type === "review.state") return;
  const assetId = signal.asset_id;
  if (signal.type === "asset.status") {
    if (!SETTLED.has(signal.status)) return refreshAsset(queryClient, workspaceId, assetId);
    void queryClient.invalidateQueries({ queryKey: assetKeys.detail(workspaceId, assetId), exact: true });
    void queryClient.invalidateQueries({ queryKey: assetKeys.all(workspaceId) });
    return;
  }
  if (signal.type === "asset.version") {
    // Versions (issue 29): another version became current, or one was added or removed. The asset's
    // media and facts with its versions list (keyed under it), the listings that show it, and its
    // comments (the current version's by default).
    void queryClient.invalidateQueries({ queryKey: commentKeys.asset(workspaceId, assetId) });
    void queryClient.invalidateQueries({ queryKey: assetKeys.detail(workspaceId, assetId) });
    void queryClient.invalidateQueries({ queryKey: assetKeys.all(workspaceId) });
    return;
  }
  // Top-level comments show their thread's reply count: a reply changes them too.
  void queryClient.invalidateQueries({ queryKey: commentKeys.allTop(workspaceId, assetId) });
  if (signal.parent_id !== null) {
    void queryClient.invalidateQueries({ queryKey: commentKeys.replies(workspaceId, assetId, signal.thread_id) });
    return; // a reply: the open-thread count is the same
  }
  if (signal.type === "comment.updated") return; // an edit: so is it
  void queryClient.invalidateQueries({
    queryKey: assetKeys.lists(workspaceId),
    predicate: (q) => (q.queryKey[3] as AssetListView | undefined)?.filters?.has_open_comments !== undefined,
  });
  await refreshAsset(queryClient, workspaceId, assetId);
}

const listsOf = (queryClient: QueryClient, workspaceId: string) =>
  queryClient.getQueriesData<InfiniteData<AssetListAnswer>>({ queryKey: assetKeys.lists(workspaceId) });
const holds = (data: InfiniteData<AssetListAnswer> | undefined, assetId: string) =>
  !!data?.pages.some((p) => p.data.some((a) => a.id === assetId));

/**
 * The asset again: its own query is refetched if shown; if a grid shows it, it is fetched once and
 * replaces its card in every cached page, instead of each grid refetching its pages.
 */
async function refreshAsset(queryClient: QueryClient, workspaceId: string, assetId: string) {
  const detail = assetKeys.detail(workspaceId, assetId);
  if (!listsOf(queryClient, workspaceId).some(([, data]) => holds(data, assetId))) {
    await queryClient.invalidateQueries({ queryKey: detail, exact: true });
    return;
  }
  let fresh: Asset;
  try {
    // A refresh still under way for an earlier event gives way: this one reads after both changes.
    await queryClient.cancelQueries({ queryKey: detail, exact: true });
    fresh = await queryClient.fetchQuery({ ...assetQuery(workspaceId, assetId), staleTime: 0 });
  } catch (error) {
    if (isCancelledError(error)) return; // a later event's refresh took over
    // Gone (deleted, trashed) or unreachable: the grids that show it ask for their pages again.
    void queryClient.invalidateQueries({
      queryKey: assetKeys.lists(workspaceId),
      predicate: (q) => holds(q.state.data as InfiniteData<AssetListAnswer> | undefined, assetId),
    });
    return;
  }
  for (const [key, data] of listsOf(queryClient, workspaceId)) {
    if (!data || !holds(data, assetId)) continue;
    queryClient.setQueryData<InfiniteData<AssetListAnswer>>(key, {
      ...data,
      pages: data.pages.map((p) => ({ ...p, data: p.data.map((a) => (a.id === assetId ? fresh : a)) })),
    });
  }
}
