import type { RouteObject } from "react-router-dom";
import { NotFoundState } from "../../ui/not-found-state";
import { AllAssetsPage } from "../assets/pages/all-assets-page";
import { RecentlyDeletedPage } from "../assets/pages/recently-deleted-page";
import { BoardPage } from "../boards/pages/board-page";
import { MembersPage } from "../members/pages/members-page";
import { SettingsDetailsPage } from "../settings/pages/settings-details-page";
import { SettingsFieldsPage } from "../settings/pages/settings-fields-page";
import { SettingsSubscriptionPage } from "../settings/pages/settings-subscription-page";
import { WorkspaceSettingsLayout } from "../settings/pages/workspace-settings-layout";
import { WorkspaceLayout } from "./components/workspace-layout";
import { WorkspaceHomePage } from "./pages/workspace-home-page";

/**
 * /w/:workspaceId and everything below it, inside the app shell. An asset's address (a/:assetId, with
 * or without b/:boardId) is a child of its grid's route: opening one shows its preview over the grid,
 * which stays mounted. Slots for later issues: checkout, subscription/change, subscription/success.
 */
export const workspaceRoute: RouteObject = {
  path: "w/:workspaceId",
  element: <WorkspaceLayout />,
  children: [
    { index: true, element: <WorkspaceHomePage /> },
    { path: "members", element: <MembersPage /> },
    {
      path: "settings",
      element: <WorkspaceSettingsLayout />,
      children: [
        { index: true, element: <SettingsDetailsPage /> },
        { path: "details", element: <SettingsDetailsPage /> },
        { path: "subscription", element: <SettingsSubscriptionPage /> },
        { path: "fields", element: <SettingsFieldsPage /> },
      ],
    },
    // The children render nothing themselves (element: null); the page reads :assetId for the preview.
    {
      element: <AllAssetsPage />,
      children: [
        { path: "b/all", element: null },
        { path: "a/:assetId", element: null },
      ],
    },
    {
      path: "b/:boardId",
      element: <BoardPage />,
      children: [
        { index: true, element: null },
        { path: "a/:assetId", element: null },
      ],
    },
    { path: "recently-deleted", element: <RecentlyDeletedPage /> },
    // Unknown paths inside a workspace keep the shell around the not-found state.
    { path: "*", element: <NotFoundState backTo=".." backLabel="Back to the workspace" /> },
  ],
};
