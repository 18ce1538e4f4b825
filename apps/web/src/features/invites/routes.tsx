import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/** /a/invite/:token, inside the authentication layout, loaded on demand. */
export const inviteRoute: RouteObject = {
  path: "a/invite/:token",
  lazy: lazyPage(() => import("./pages/invite-page"), "InvitePage"),
};
