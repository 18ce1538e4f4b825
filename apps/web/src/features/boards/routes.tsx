import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/** A board's grid; as for all assets, an asset's address under it opens the preview over it. */
export const boardRoute: RouteObject = {
  path: "b/:boardId",
  lazy: lazyPage(() => import("./pages/board-page"), "BoardPage"),
  children: [
    { index: true, element: null },
    { path: "a/:assetId", element: null },
  ],
};
