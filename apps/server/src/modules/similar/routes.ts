import { similarApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { SimilarService } from "./service.ts";

export function similarRoutes(app: App, similar: SimilarService) {
  addRoute(app, api.similar, (req) =>
    similar.similar(userOf(req), req.params.id, req.params.assetId, req.query.max_distance),
  );
  addRoute(app, api.duplicates, (req) => similar.duplicates(userOf(req), req.params.id, req.query));
  addRoute(app, api.keep, (req) => similar.keep(userOf(req), req.params.id, req.body));
  addRoute(app, api.stack, (req) => similar.stack(userOf(req), req.params.id, req.body));
  addRoute(app, api.dismiss, (req) => similar.dismiss(userOf(req), req.params.id, req.body.asset_ids));
  addRoute(app, api.settings, (req) => similar.setMaxDistance(userOf(req), req.params.id, req.body.max_distance));
}
