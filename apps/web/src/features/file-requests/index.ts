// File requests: upload-only links for a board (the dialog, loaded on demand) and the public upload page's route.
import type { RouteObject } from "react-router-dom";
import { lazyNamed } from "../../lib/deferred";
import { lazyPage } from "../../lib/lazy-page";

export const FileRequestsDialog = lazyNamed(() => import("./file-requests-dialog"), "FileRequestsDialog");
export { UploadLinksReview } from "./upload-links-review";

/** /r/:token, the public upload page: no sign-in, its own layout. */
export const requestRoute: RouteObject = {
  path: "r/:token",
  lazy: lazyPage(() => import("./request-page"), "RequestPage"),
};
