import {
  REVIEW_MESSAGES,
  type ReviewDecisionKind,
  type ReviewerPage,
  reviewLinkApi,
  SHARE_PASSWORD_HEADER,
} from "@hangar/contract";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callApi } from "../../lib/api-client";
import { invalidateAssetComments } from "../comments";

/** What an outside reviewer's page asks through their link (issue 30). */
export const reviewLinkKeys = {
  all: (token: string) => ["review-link", token] as const,
  page: (token: string) => ["review-link", token, "page"] as const,
  asset: (token: string, assetId: string) => ["review-link", token, "asset", assetId] as const,
};

/** Visitors hear no event stream: the page (others' decisions, the stage) refreshes on its own. */
const REFRESH_MS = 30_000;

/**
 * The review as the link shows it. The password, when typed, goes once in its header (as a share
 * link's); the server keeps the unlock in a cookie scoped to this link, so later calls carry nothing.
 */
export function useReviewerPage(token: string, password: string | null, attempt = 0) {
  return useQuery<ReviewerPage>({
    queryKey: [...reviewLinkKeys.page(token), attempt],
    placeholderData: keepPreviousData,
    retry: false,
    refetchOnWindowFocus: false,
    refetchInterval: (q) => (q.state.status === "success" ? REFRESH_MS : false),
    queryFn: ({ signal }): Promise<ReviewerPage> =>
      callApi(reviewLinkApi.page, {
        params: { token },
        signal,
        headers: password ? { [SHARE_PASSWORD_HEADER]: password } : undefined,
        fallback: REVIEW_MESSAGES.linkNotFound,
      }),
  });
}

/** One asset of the review, as the viewer shows it (null asks nothing). */
export function useReviewerAsset(token: string, assetId: string | null) {
  return useQuery({
    queryKey: reviewLinkKeys.asset(token, assetId ?? ""),
    enabled: assetId !== null,
    retry: false,
    queryFn: ({ signal }) =>
      callApi(reviewLinkApi.asset, { params: { token, assetId: assetId! }, signal, fallback: "Failed to fetch asset" }),
  });
}

/**
 * A decision through the link; the answer (the page again) replaces the cached page at once. The
 * viewer's decision bar tells the reviewer how it went.
 */
export function useReviewerDecide(token: string, pageKey: readonly unknown[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: {
      assetId: string;
      workspaceId: string;
      versionId: string | null;
      decision: ReviewDecisionKind;
      note: string;
    }) =>
      callApi(reviewLinkApi.decide, {
        params: { token },
        body: {
          asset_id: input.assetId,
          decision: input.decision,
          note: input.note.trim() || null,
          ...(input.versionId ? { version_id: input.versionId } : {}),
        },
      }),
    onSuccess: (page: ReviewerPage) => queryClient.setQueryData(pageKey, page),
    onSettled: (_page, _error, input) => {
      // The note is a comment on the asset; its status changed.
      invalidateAssetComments(queryClient, input.workspaceId, input.assetId);
      void queryClient.invalidateQueries({ queryKey: reviewLinkKeys.asset(token, input.assetId) });
    },
  });
}
