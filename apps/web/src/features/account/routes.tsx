import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/** /a/settings: the account page, inside the app shell, loaded on demand. */
export const accountRoute: RouteObject = {
  path: "a/settings",
  lazy: lazyPage(() => import("./pages/account-settings-page"), "AccountSettingsPage"),
};
