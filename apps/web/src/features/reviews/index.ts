// The reviews feature (issue 30): the "Request review" dialog (loaded the first time it opens: mount it
// inside WhenOpened) and the Reviews pages' route. Review data lives in entities/review.
import { lazyNamed } from "../../lib/deferred";

export type { ReviewTarget } from "./request/payload";
export { RequestReviewButton } from "./request/request-review-button";
export { reviewsRoute } from "./routes";

/** "Request review" for chosen assets or a board's assets. */
export const RequestReviewDialog = lazyNamed(() => import("./request/request-review-dialog"), "RequestReviewDialog");
