import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/** /s/:token, the public shared content page: no sign-in, its own layout, loaded on demand. */
export const sharedRoute: RouteObject = {
  path: "s/:token",
  lazy: lazyPage(() => import("./pages/shared-page"), "SharedPage"),
};
