import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { type LiveSignal, subscribeLive } from "../../lib/live-events";
import { assetKeys } from "../asset";
import { reviewKeys } from "./api";

/**
 * What an approvals event makes stale (docs/architecture.md §4.3: ids only, the client refetches):
 * - `review.decision`, `review.asset`: the review, the reviews lists (progress, waiting for me), the
 *   asset (its `approval`) and the listings (badges, the `approval_status` filter);
 * - `review.state`: the review and the lists (a new review, a stage started, canceled, done);
 * - `resync`: everything of reviews.
 * Other events are not reviews' (comments and versions have their own listeners).
 */
export function applyReviewSignal(queryClient: QueryClient, workspaceId: string, signal: LiveSignal): void {
  if (signal.type === "resync") {
    void queryClient.invalidateQueries({ queryKey: reviewKeys.all(workspaceId) });
    return;
  }
  if (signal.type !== "review.decision" && signal.type !== "review.asset" && signal.type !== "review.state") return;
  void queryClient.invalidateQueries({ queryKey: reviewKeys.lists(workspaceId) });
  void queryClient.invalidateQueries({ queryKey: reviewKeys.detail(workspaceId, signal.review_id) });
  if (signal.type === "review.state") return;
  void queryClient.invalidateQueries({ queryKey: assetKeys.detail(workspaceId, signal.asset_id), exact: true });
  void queryClient.invalidateQueries({ queryKey: assetKeys.lists(workspaceId) });
}

/** Keeps what shows reviews fresh as the workspace's approvals events arrive (while mounted). */
export function useLiveReviews(workspaceId: string | null | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!workspaceId) return;
    return subscribeLive(workspaceId, (signal) => applyReviewSignal(queryClient, workspaceId, signal));
  }, [workspaceId, queryClient]);
}
