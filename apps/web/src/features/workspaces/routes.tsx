import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/** /w: open the last used workspace (behind RequireAuth, outside the shell). */
export const workspacesRedirectRoute: RouteObject = {
  path: "w",
  lazy: lazyPage(() => import("./pages/workspaces-redirect-page"), "WorkspacesRedirectPage"),
};

/** /w/new, inside the blank layout. */
export const createWorkspaceRoute: RouteObject = {
  path: "w/new",
  lazy: lazyPage(() => import("./pages/create-workspace-page"), "CreateWorkspacePage"),
};

/** /w/:workspaceId itself: the workspace's home page. */
export const workspaceHomeRoute: RouteObject = {
  index: true,
  lazy: lazyPage(() => import("./pages/workspace-home-page"), "WorkspaceHomePage"),
};
