import { auditApi as api } from "@hangar/contract";
import { contentDisposition } from "../../platform/content-disposition.ts";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { AuditService } from "./service.ts";

export function auditRoutes(app: App, audit: AuditService) {
  addRoute(app, api.list, (req) => audit.list(userOf(req), req.params.id, req.query));
  addRoute(app, api.export, async (req, reply) => {
    const csv = await audit.export(userOf(req), req.params.id, req.query);
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header("Content-Type", "text/csv; charset=utf-8")
      .header("Content-Disposition", contentDisposition("attachment", `audit-log-${day}.csv`))
      .header("Cache-Control", "no-store")
      .send(csv);
  });
  addRoute(app, api.settings, (req) => audit.settings(userOf(req), req.params.id));
  addRoute(app, api.saveSettings, (req) => audit.saveSettings(userOf(req), req.params.id, req.body));
  addRoute(app, api.assetHistory, (req) =>
    audit.assetHistory(userOf(req), req.params.id, req.params.assetId, req.query),
  );
  addRoute(app, api.boardHistory, (req) =>
    audit.boardHistory(userOf(req), req.params.id, req.params.boardId, req.query),
  );
}
