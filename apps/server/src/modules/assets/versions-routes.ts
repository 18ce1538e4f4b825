import { versionsApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { VersionsService } from "./versions-service.ts";

export function versionsRoutes(app: App, versions: VersionsService) {
  addRoute(app, api.list, (req) => versions.list(userOf(req), req.params.id, req.params.assetId));
  addRoute(app, api.makeCurrent, (req) =>
    versions.makeCurrent(userOf(req), req.params.id, req.params.assetId, req.params.versionId),
  );
  addRoute(app, api.remove, (req) =>
    versions.remove(userOf(req), req.params.id, req.params.assetId, req.params.versionId),
  );
  addRoute(app, api.stack, (req) => versions.stack(userOf(req), req.params.id, req.params.assetId, req.body.asset_ids));
  addRoute(app, api.detach, (req) =>
    versions.detach(userOf(req), req.params.id, req.params.assetId, req.params.versionId),
  );
}
