// The review entity (issue 30): review requests' query keys, queries and mutations (list, one review,
// create, edit, cancel, reopen, decide), the report's address, the viewer's `?review=` parameter, and
// how approval states read and look.
export {
  invalidateReviewQueries,
  REVIEW_PARAM,
  reviewKeys,
  reviewQuery,
  reviewReportUrl,
  reviewsQuery,
  useCancelReview,
  useCreateReview,
  useDecideReview,
  useReopenReview,
  useReview,
  useReviews,
  useUpdateReview,
} from "./api";
export { formatWhen, progressText, REVIEW_COLORS, reviewColor, reviewLabel } from "./labels";
export { applyReviewSignal, useLiveReviews } from "./live";
export { ReviewStateBadge } from "./state-badge";
