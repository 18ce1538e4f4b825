import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";
import { apiKeysSettingsRoute } from "../api-keys";
import { auditSettingsRoute } from "../audit";
import { subscriptionSettingsRoute } from "../billing";
import { webhooksSettingsRoute } from "../webhooks";

/** /w/:workspaceId/settings and its tabs, each loaded on demand. */
export const settingsRoute: RouteObject = {
  path: "settings",
  lazy: lazyPage(() => import("./pages/workspace-settings-layout"), "WorkspaceSettingsLayout"),
  children: [
    { index: true, lazy: lazyPage(() => import("./pages/settings-details-page"), "SettingsDetailsPage") },
    { path: "details", lazy: lazyPage(() => import("./pages/settings-details-page"), "SettingsDetailsPage") },
    subscriptionSettingsRoute,
    { path: "fields", lazy: lazyPage(() => import("./pages/settings-fields-page"), "SettingsFieldsPage") },
    {
      path: "share-links",
      lazy: lazyPage(() => import("./pages/settings-share-links-page"), "SettingsShareLinksPage"),
    },
    apiKeysSettingsRoute,
    webhooksSettingsRoute,
    auditSettingsRoute,
  ],
};
