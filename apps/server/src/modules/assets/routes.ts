import { type Asset, assetsApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { AssetsService } from "./service.ts";

const JSON_UTF8 = "application/json; charset=utf-8";

export function assetsRoutes(app: App, assets: AssetsService) {
  // Already JSON, encoded through Asset when made: Fastify sends a JSON-typed string as it is (the
  // schema still documents the answer). The cast only tells the type provider so.
  addRoute(app, api.get, async (req, reply) => {
    const json = await assets.getJson(userOf(req), req.params.id, req.params.assetId);
    return reply.type(JSON_UTF8).send(json as unknown as Asset);
  });
  addRoute(app, api.update, (req) => assets.edit(userOf(req), req.params.id, req.params.assetId, req.body));
  addRoute(app, api.setTags, (req) =>
    assets.setTags(userOf(req), req.params.id, req.body.asset_ids, req.body.tags, req.body.mode),
  );
  addRoute(app, api.setFavorite, (req) =>
    assets.setFavorite(userOf(req), req.params.id, req.body.asset_ids, req.body.favorite),
  );
  addRoute(app, api.move, (req) =>
    assets.move(userOf(req), req.params.id, req.body.asset_ids, req.body.destination_id),
  );
  addRoute(app, api.remove, (req) => assets.remove(userOf(req), req.params.id, req.body.asset_ids));
  addRoute(app, api.tags, (req) => assets.tags(userOf(req), req.params.id));
  addRoute(app, api.aiTags, (req) => assets.aiTags(userOf(req), req.params.id));
}
