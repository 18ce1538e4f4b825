import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/** Settings → API keys, as a tab of the settings layout (ADMIN only). */
export const apiKeysSettingsRoute: RouteObject = {
  path: "api-keys",
  lazy: lazyPage(() => import("./pages/settings-api-keys-page"), "SettingsApiKeysPage"),
};
