import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/** /w/:workspaceId/duplicates (issue 32), loaded on demand. */
export const duplicatesRoute: RouteObject = {
  path: "duplicates",
  lazy: lazyPage(() => import("./pages/duplicates-page"), "DuplicatesPage"),
};
