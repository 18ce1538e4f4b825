import { createBrowserRouter, Outlet } from "react-router-dom";
import { accountRoute } from "../features/account";
import { AuthLayout, publicRoutes, RequireAuth } from "../features/auth";
import { accountCheckoutSuccessRoute } from "../features/billing";
import { requestRoute } from "../features/file-requests";
import { inviteRoute } from "../features/invites";
import { reviewLinkRoute } from "../features/review-link";
import { sharedRoute } from "../features/shared-view";
import { createWorkspaceRoute, workspacesRedirectRoute } from "../features/workspaces";
import { lazyPage } from "../lib/lazy-page";
import { BlankLayout } from "../ui/blank-layout";
import { CenteredLoader } from "../ui/centered-loader";
import { NotFoundPage } from "../ui/not-found-page";
import { RouteErrorPage } from "../ui/route-error-page";
import { NavigationProgress } from "./shell/navigation-progress";
import { workspaceRoute } from "./shell/workspace-routes";

function RootLayout() {
  return (
    <>
      <NavigationProgress />
      <Outlet />
    </>
  );
}

/**
 * The route table of spec 01 §2, as a data router. Three layouts: public (auth card), blank
 * (create-workspace) and the authenticated app shell; the last two sit behind RequireAuth. Pages
 * load on demand (each feature's routes.tsx), so a first load fetches only its own page; until that
 * page's chunk arrives the hydrate fallback shows a loader, never a blank screen.
 * /s/:token (public shared content), /r/:token (upload links) and /review/:token (an outside
 * reviewer's page) need no sign-in and bring their own layout.
 */
export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <CenteredLoader label="Loading Hangar…" fullPage />,
    children: [
      { element: <AuthLayout />, children: [...publicRoutes, inviteRoute] },
      {
        element: <RequireAuth />,
        children: [
          workspacesRedirectRoute,
          { element: <BlankLayout />, children: [createWorkspaceRoute] },
          {
            // The shell (navbar, boards tree, uploads) is only for signed-in pages: the sign-in page never fetches it.
            lazy: lazyPage(() => import("./shell/app-shell-layout"), "AppShellLayout"),
            children: [accountRoute, accountCheckoutSuccessRoute, workspaceRoute],
          },
        ],
      },
      sharedRoute,
      requestRoute,
      reviewLinkRoute,
      { path: "*", element: <NotFoundPage /> },
    ],
  },
]);
