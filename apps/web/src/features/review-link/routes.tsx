import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/** /review/:token, an outside reviewer's page: no sign-in, its own layout, loaded on demand. */
export const reviewLinkRoute: RouteObject = {
  path: "review/:token",
  lazy: lazyPage(() => import("./review-page"), "ReviewPage"),
};
