import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { assetKeys, invalidateAssetQueries } from "../../entities/asset";
import { type LiveListener, liveConnected, subscribeLive, watchLive } from "../../lib/live-events";
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

/**
 * Keeps the viewer's asset fresh: comment changes refetch its comment lists and its open-thread count;
 * a status change refetches it; anything else of the workspace refreshes the grids behind.
 */
export function useLiveAsset(workspaceId: string | null, assetId: string) {
  const queryClient = useQueryClient();
  useLiveEvents(workspaceId, (event) => {
    if (!workspaceId) return;
    const mine = event.type === "resync" || event.asset_id === assetId;
    if (mine) {
      if (event.type !== "asset.status")
        void queryClient.invalidateQueries({ queryKey: commentKeys.asset(workspaceId, assetId) });
      void queryClient.invalidateQueries({ queryKey: assetKeys.detail(workspaceId, assetId) });
    }
    invalidateAssetQueries(queryClient, workspaceId);
  });
}
