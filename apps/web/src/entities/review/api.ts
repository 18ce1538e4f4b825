import {
  API_PREFIX,
  type CreateReviewBody,
  type Review,
  type ReviewDecisionBody,
  type ReviewListQuery,
  reviewsApi,
  type UpdateReviewBody,
} from "@hangar/contract";
import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { callApi, routeUrl } from "../../lib/api-client";
import { assetKeys } from "../asset";
import { workspaceKeys } from "../workspace";

/**
 * Review requests (issue 30). Everything of a workspace's reviews sits under
 * ["workspace", ws, "reviews"]: lists by their query, one review by its id. A change to a review
 * also changes what assets answer (`approval`, the cards' badge, the `approval_status` filter), so
 * the mutations here refresh those asset keys too.
 */
export const reviewKeys = {
  all: (workspaceId: string) => [...workspaceKeys.scope(workspaceId), "reviews"] as const,
  lists: (workspaceId: string) => [...reviewKeys.all(workspaceId), "list"] as const,
  list: (workspaceId: string, query: ReviewListQuery) => [...reviewKeys.lists(workspaceId), query] as const,
  details: (workspaceId: string) => [...reviewKeys.all(workspaceId), "detail"] as const,
  detail: (workspaceId: string, reviewId: string) => [...reviewKeys.details(workspaceId), reviewId] as const,
};

/** The viewer's address names the review an asset was opened from: `/w/{ws}/a/{asset}?review={id}`. */
export const REVIEW_PARAM = "review";

export function reviewsQuery(workspaceId: string, query: ReviewListQuery) {
  return queryOptions({
    queryKey: reviewKeys.list(workspaceId, query),
    queryFn: ({ signal }) =>
      callApi(reviewsApi.list, { params: { id: workspaceId }, query, signal, fallback: "Failed to fetch reviews" }),
  });
}

/** A page of the workspace's reviews (`waiting_for=me`, `requested_by=me`, `state`, `asset_id`…). */
export function useReviews(workspaceId: string, query: ReviewListQuery, enabled = true) {
  return useQuery({ ...reviewsQuery(workspaceId, query), enabled, placeholderData: keepPreviousData });
}

export function reviewQuery(workspaceId: string, reviewId: string) {
  return queryOptions({
    queryKey: reviewKeys.detail(workspaceId, reviewId),
    queryFn: ({ signal }) =>
      callApi(reviewsApi.get, {
        params: { id: workspaceId, reviewId },
        signal,
        fallback: "Failed to fetch the review",
      }),
  });
}

/** One review: its stages, reviewers, assets with each reviewer's decision, progress and history. */
export function useReview(workspaceId: string, reviewId: string | null) {
  return useQuery({ ...reviewQuery(workspaceId, reviewId ?? ""), enabled: !!reviewId });
}

/**
 * After a review changed: its lists, the review itself (when its answer is at hand it is put in the
 * cache as is) and the assets it holds (their `approval`), or every asset when they are unknown.
 */
export function invalidateReviewQueries(
  queryClient: QueryClient,
  workspaceId: string,
  changed: { review?: Review; reviewId?: string; assetIds?: readonly string[] } = {},
) {
  queryClient.invalidateQueries({ queryKey: reviewKeys.lists(workspaceId) });
  if (changed.review) queryClient.setQueryData(reviewKeys.detail(workspaceId, changed.review.id), changed.review);
  else if (changed.reviewId)
    queryClient.invalidateQueries({ queryKey: reviewKeys.detail(workspaceId, changed.reviewId) });
  else queryClient.invalidateQueries({ queryKey: reviewKeys.details(workspaceId) });
  queryClient.invalidateQueries({ queryKey: assetKeys.lists(workspaceId) });
  const assetIds = changed.assetIds ?? changed.review?.assets.map((a) => a.asset_id);
  if (assetIds)
    for (const id of assetIds) queryClient.invalidateQueries({ queryKey: assetKeys.detail(workspaceId, id) });
  else queryClient.invalidateQueries({ queryKey: assetKeys.details(workspaceId) });
}

/** Request a review (EDITOR, ADMIN). The caller shows the notification (it links to the new review). */
export function useCreateReview(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateReviewBody) =>
      callApi(reviewsApi.create, { params: { id: workspaceId }, body, fallback: "Failed to request the review" }),
    onSuccess: (review) => invalidateReviewQueries(queryClient, workspaceId, { review }),
  });
}

/** Title, message, due date, lock, stages (the requester or an ADMIN). */
export function useUpdateReview(workspaceId: string, reviewId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateReviewBody) =>
      callApi(reviewsApi.update, {
        params: { id: workspaceId, reviewId },
        body,
        fallback: "Failed to update the review",
      }),
    onSuccess: (review) => invalidateReviewQueries(queryClient, workspaceId, { review }),
  });
}

export function useCancelReview(workspaceId: string, reviewId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      callApi(reviewsApi.cancel, { params: { id: workspaceId, reviewId }, fallback: "Failed to cancel the review" }),
    onSuccess: (review) => invalidateReviewQueries(queryClient, workspaceId, { review }),
  });
}

/** Resume a canceled review, or start the active stage over for the assets named (all when none). */
export function useReopenReview(workspaceId: string, reviewId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (assetIds?: string[]) =>
      callApi(reviewsApi.reopen, {
        params: { id: workspaceId, reviewId },
        body: assetIds?.length ? { asset_ids: assetIds } : {},
        fallback: "Failed to reopen the review",
      }),
    onSuccess: (review) => invalidateReviewQueries(queryClient, workspaceId, { review }),
  });
}

/** A reviewer of the active stage decides on an asset's current version (`note` becomes a comment). */
export function useDecideReview(workspaceId: string, reviewId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReviewDecisionBody) =>
      callApi(reviewsApi.decide, {
        params: { id: workspaceId, reviewId },
        body,
        fallback: "Failed to record the decision",
      }),
    // The note's comment reaches the comments panel as its live `comment.created` event.
    onSuccess: (review) => invalidateReviewQueries(queryClient, workspaceId, { review }),
  });
}

/** The record as a file (`<a href download>`): each asset, every decision and the history. */
export const reviewReportUrl = (workspaceId: string, reviewId: string, format: "csv" | "pdf") =>
  `${API_PREFIX}${routeUrl(reviewsApi.report, { id: workspaceId, reviewId })}?format=${format}`;
