import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/** Settings → Webhooks and one endpoint's page (its log), tabs of the settings layout (ADMIN only). */
export const webhooksSettingsRoute: RouteObject = {
  path: "webhooks",
  children: [
    { index: true, lazy: lazyPage(() => import("./pages/settings-webhooks-page"), "SettingsWebhooksPage") },
    { path: ":hookId", lazy: lazyPage(() => import("./pages/webhook-page"), "WebhookPage") },
  ],
};
