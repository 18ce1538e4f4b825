import type { RouteObject } from "react-router-dom";
import { allAssetsRoute } from "../../features/assets";
import { billingWorkspaceRoutes } from "../../features/billing";
import { boardRoute } from "../../features/boards";
import { duplicatesRoute } from "../../features/duplicates";
import { membersRoute } from "../../features/members";
import { peopleRoutes } from "../../features/people";
import { reviewsRoute } from "../../features/reviews";
import { settingsRoute } from "../../features/settings";
import { trashRoute } from "../../features/trash";
import { workspaceHomeRoute } from "../../features/workspaces";
import { NotFoundState } from "../../ui/not-found-state";
import { WorkspaceLayout } from "./workspace-layout";

/**
 * /w/:workspaceId and everything below it, inside the app shell. The shell owns the layout that
 * loads the workspace; each feature owns its route, whose page loads on demand.
 */
export const workspaceRoute: RouteObject = {
  path: "w/:workspaceId",
  element: <WorkspaceLayout />,
  children: [
    workspaceHomeRoute,
    membersRoute,
    settingsRoute,
    allAssetsRoute,
    boardRoute,
    reviewsRoute,
    trashRoute,
    duplicatesRoute,
    ...peopleRoutes,
    ...billingWorkspaceRoutes,
    // Unknown paths inside a workspace keep the shell around the not-found state.
    { path: "*", element: <NotFoundState backTo=".." backLabel="Back to the workspace" /> },
  ],
};
