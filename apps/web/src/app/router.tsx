import { createBrowserRouter, Outlet } from "react-router-dom";
import { AccountSettingsPage } from "../features/account/pages/account-settings-page";
import { AuthLayout } from "../features/auth/components/auth-layout";
import { RequireAuth } from "../features/auth/components/require-auth";
import { publicRoutes } from "../features/auth/routes";
import { AppShellLayout } from "../features/workspaces/components/app-shell-layout";
import { CreateWorkspacePage } from "../features/workspaces/pages/create-workspace-page";
import { WorkspacesRedirectPage } from "../features/workspaces/pages/workspaces-redirect-page";
import { workspaceRoute } from "../features/workspaces/routes";
import { BlankLayout } from "../ui/blank-layout";
import { NotFoundPage } from "../ui/not-found-page";
import { RouteErrorPage } from "../ui/route-error-page";

/**
 * The route table of spec 01 §2, as a data router. Three layouts: public (auth card), blank
 * (create-workspace) and the authenticated app shell; the last two sit behind RequireAuth.
 * Still to come: /s/:token (public shared content) and /subscription/success.
 */
export const router = createBrowserRouter([
  {
    element: <Outlet />,
    errorElement: <RouteErrorPage />,
    children: [
      { element: <AuthLayout />, children: publicRoutes },
      {
        element: <RequireAuth />,
        children: [
          { path: "w", element: <WorkspacesRedirectPage /> },
          { element: <BlankLayout />, children: [{ path: "w/new", element: <CreateWorkspacePage /> }] },
          {
            element: <AppShellLayout />,
            children: [{ path: "a/settings", element: <AccountSettingsPage /> }, workspaceRoute],
          },
        ],
      },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
]);
