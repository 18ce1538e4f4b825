import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/**
 * The workspace's grid of every asset. An asset's address (a/:assetId) is a child of the grid's
 * route: opening one shows its preview over the grid, which stays mounted. The children render
 * nothing themselves (no element); the page reads :assetId for the preview.
 */
export const allAssetsRoute: RouteObject = {
  lazy: lazyPage(() => import("./pages/all-assets-page"), "AllAssetsPage"),
  children: [
    { path: "b/all", element: null },
    { path: "a/:assetId", element: null },
  ],
};
