import { rightsApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import type { RightsService } from "./service.ts";

export function rightsRoutes(app: App, rights: RightsService) {
  addRoute(app, api.get, (req) => rights.get(req.actor, req.params.id, req.params.assetId));
  addRoute(app, api.put, (req) => rights.put(req.actor, req.params.id, req.params.assetId, req.body));
  addRoute(app, api.bulk, (req) => rights.bulk(req.actor, req.params.id, req.body));
}
