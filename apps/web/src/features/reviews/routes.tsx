import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/** /w/:workspaceId/reviews (the lists) and /w/:workspaceId/reviews/:reviewId (one review), loaded on demand. */
export const reviewsRoute: RouteObject = {
  path: "reviews",
  children: [
    { index: true, lazy: lazyPage(() => import("./pages/reviews-page"), "ReviewsPage") },
    { path: ":reviewId", lazy: lazyPage(() => import("./pages/review-page"), "ReviewPage") },
  ],
};
