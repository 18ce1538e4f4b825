import type { RouteObject } from "react-router-dom";
import { lazyPage } from "../../lib/lazy-page";

/** Settings → Audit log, as a tab of the settings layout (ADMIN only). */
export const auditSettingsRoute: RouteObject = {
  path: "audit",
  lazy: lazyPage(() => import("./pages/settings-audit-page"), "SettingsAuditPage"),
};
