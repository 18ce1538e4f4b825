import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/** /w/:workspaceId/members, loaded on demand. */
export const membersRoute: RouteObject = {
  path: "members",
  lazy: lazyPage(() => import("./pages/members-page"), "MembersPage"),
};
