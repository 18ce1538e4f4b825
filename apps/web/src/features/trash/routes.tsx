import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/** /w/:workspaceId/recently-deleted, loaded on demand. */
export const trashRoute: RouteObject = {
  path: "recently-deleted",
  lazy: lazyPage(() => import("./pages/recently-deleted-page"), "RecentlyDeletedPage"),
};
