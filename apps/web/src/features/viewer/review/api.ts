import {
  DECISION_LABELS,
  type Review,
  type ReviewDecision,
  type ReviewDecisionKind,
  type ReviewSummary,
  reviewsApi,
} from "@hangar/contract";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { assetKeys, invalidateAssetQueries } from "../../../entities/asset";
import { reviewKeys, reviewQuery } from "../../../entities/review";
import { callApi, errorMessage } from "../../../lib/api-client";
import { notifyError, notifySuccess } from "../../../lib/notify";
import { invalidateAssetComments, useLiveEvents } from "../../comments";

/**
 * The review calls the viewer makes for a member (issue 30): one review (for the decision bar), a
 * decision, and the asset's review history (the details tab). One review is one cache entry with the
 * Reviews page's (entities/review's keys and query); what lives here needs the comments feature (its
 * live events, the note's comment), which an entity may not import.
 */
export const viewerReviewKeys = {
  detail: reviewKeys.detail,
  history: (workspaceId: string, assetId: string) =>
    [...reviewKeys.all(workspaceId), "asset-history", assetId] as const,
};

export const DECISION_FAILED = "Failed to save your decision";
const HISTORY_FAILED = "Failed to load the review history";

/** The words of the toast after a decision. */
export const decidedText = (decision: ReviewDecisionKind, assetName: string) =>
  `${DECISION_LABELS[decision]}: ${assetName}`;

/** The toasts of a decision, for a member's bar and an outside reviewer's alike; the outcome passes on. */
export function withDecisionToasts<T>(sent: Promise<T>, decision: ReviewDecisionKind, assetName: string): Promise<T> {
  return sent.then(
    (answer) => {
      notifySuccess(decidedText(decision, assetName));
      return answer;
    },
    (error: unknown) => {
      notifyError(errorMessage(error, DECISION_FAILED));
      throw error;
    },
  );
}

/** One review as the member reads it (null asks nothing). A review they may not see answers 404: no bar. */
export function useViewerReview(workspaceId: string, reviewId: string | null) {
  return useQuery({ ...reviewQuery(workspaceId, reviewId ?? ""), enabled: reviewId !== null, retry: false });
}

/** After a decision: the review, the asset (its `approval`), the grids (their badges), the history, the note's comment. */
function settleDecision(queryClient: QueryClient, workspaceId: string, assetId: string) {
  void queryClient.invalidateQueries({ queryKey: assetKeys.detail(workspaceId, assetId), exact: true });
  void queryClient.invalidateQueries({ queryKey: viewerReviewKeys.history(workspaceId, assetId) });
  invalidateAssetQueries(queryClient, workspaceId);
  invalidateAssetComments(queryClient, workspaceId, assetId);
}

/**
 * A member's decision on an asset of the review; the answer (the review) replaces the cached one. The
 * bar tells how it went (withDecisionToasts).
 */
export function useViewerDecide(workspaceId: string, reviewId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { assetId: string; decision: ReviewDecisionKind; note: string; versionId: string | null }) =>
      callApi(reviewsApi.decide, {
        params: { id: workspaceId, reviewId },
        body: {
          asset_id: input.assetId,
          decision: input.decision,
          note: input.note.trim() || null,
          ...(input.versionId ? { version_id: input.versionId } : {}),
        },
        fallback: DECISION_FAILED,
      }),
    onSuccess: (review: Review) => queryClient.setQueryData(viewerReviewKeys.detail(workspaceId, reviewId), review),
    onSettled: (_answer, _error, input) => settleDecision(queryClient, workspaceId, input.assetId),
  });
}

/**
 * Keeps the bar's review fresh as the workspace's events arrive (docs/architecture.md §4.3): a
 * decision, a state or an asset's status in it; a new current version of one of its assets (its
 * decisions reset). The asset's own `approval` follows its status.
 */
export function useReviewLive(workspaceId: string, review: Review | undefined, assetId: string) {
  const queryClient = useQueryClient();
  useLiveEvents(review ? workspaceId : null, (signal) => {
    if (!review) return;
    const detail = viewerReviewKeys.detail(workspaceId, review.id);
    if (signal.type === "resync") {
      void queryClient.invalidateQueries({ queryKey: detail });
      return;
    }
    const ours =
      signal.type === "review.decision" || signal.type === "review.asset" || signal.type === "review.state"
        ? signal.review_id === review.id
        : signal.type === "asset.version" && review.assets.some((a) => a.asset_id === signal.asset_id);
    if (!ours) return;
    void queryClient.invalidateQueries({ queryKey: detail });
    if (signal.type !== "review.state" && signal.asset_id === assetId) {
      void queryClient.invalidateQueries({ queryKey: viewerReviewKeys.history(workspaceId, assetId) });
      if (signal.type === "review.asset")
        void queryClient.invalidateQueries({ queryKey: assetKeys.detail(workspaceId, assetId), exact: true });
    }
  });
}

/** A review that held the asset, with the decisions on it (oldest first). */
export interface AssetReviewRecord {
  review: ReviewSummary;
  decisions: ReviewDecision[];
}

/**
 * The asset's review history (the details tab): each review that held it, newest first, with every
 * decision made on it. The list names the reviews; each one's decisions come with the review.
 */
export function useAssetReviewHistory(workspaceId: string, assetId: string) {
  return useQuery({
    queryKey: viewerReviewKeys.history(workspaceId, assetId),
    queryFn: async ({ signal }): Promise<AssetReviewRecord[]> => {
      const list = await callApi(reviewsApi.list, {
        params: { id: workspaceId },
        query: { asset_id: assetId, page_size: 20 },
        signal,
        fallback: HISTORY_FAILED,
      });
      return Promise.all(
        list.data.map(async (summary) => {
          const review = await callApi(reviewsApi.get, {
            params: { id: workspaceId, reviewId: summary.id },
            signal,
            fallback: HISTORY_FAILED,
          });
          return { review: summary, decisions: review.decisions.filter((d) => d.asset_id === assetId) };
        }),
      );
    },
  });
}
