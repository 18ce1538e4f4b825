import {
  AiTagList,
  Asset,
  AssetParams,
  CountAnswer,
  DeleteAssetsBody,
  FavoritesBody,
  MoveAssetsBody,
  SetTagsBody,
  TagList,
  UpdateAssetBody,
  WorkspaceParams,
} from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { AssetsService } from "./service.ts";

const JSON_UTF8 = "application/json; charset=utf-8";

export function assetsRoutes(app: App, assets: AssetsService) {
  const ws = { access: "workspace" as const };
  const tags = ["assets"];
  app.get(
    "/workspaces/:id/assets/:assetId",
    { config: ws, schema: { tags, params: AssetParams, response: { 200: Asset } } },
    // Already JSON, encoded through Asset when made: Fastify sends a JSON-typed string as it is (the
    // schema still documents the answer). The cast only tells the type provider so.
    async (req, reply) => {
      const json = await assets.getJson(userOf(req), req.params.id, req.params.assetId);
      return reply.type(JSON_UTF8).send(json as unknown as Asset);
    },
  );
  app.put(
    "/workspaces/:id/assets/:assetId",
    { config: ws, schema: { tags, params: AssetParams, body: UpdateAssetBody, response: { 200: Asset } } },
    (req) => assets.edit(userOf(req), req.params.id, req.params.assetId, req.body),
  );
  app.post(
    "/workspaces/:id/assets/tags",
    { config: ws, schema: { tags, params: WorkspaceParams, body: SetTagsBody, response: { 200: CountAnswer } } },
    (req) => assets.setTags(userOf(req), req.params.id, req.body.asset_ids, req.body.tags),
  );
  app.post(
    "/workspaces/:id/assets/favorites",
    { config: ws, schema: { tags, params: WorkspaceParams, body: FavoritesBody, response: { 200: CountAnswer } } },
    (req) => assets.setFavorite(userOf(req), req.params.id, req.body.asset_ids, req.body.favorite),
  );
  app.post(
    "/workspaces/:id/assets/move",
    { config: ws, schema: { tags, params: WorkspaceParams, body: MoveAssetsBody, response: { 200: CountAnswer } } },
    (req) => assets.move(userOf(req), req.params.id, req.body.asset_ids, req.body.destination_id),
  );
  app.delete(
    "/workspaces/:id/assets",
    { config: ws, schema: { tags, params: WorkspaceParams, body: DeleteAssetsBody, response: { 200: CountAnswer } } },
    (req) => assets.remove(userOf(req), req.params.id, req.body.asset_ids),
  );
  app.get(
    "/workspaces/:id/tags",
    { config: ws, schema: { tags, params: WorkspaceParams, response: { 200: TagList } } },
    (req) => assets.tags(userOf(req), req.params.id),
  );
  app.get(
    "/workspaces/:id/ai-tags",
    { config: ws, schema: { tags, params: WorkspaceParams, response: { 200: AiTagList } } },
    (req) => assets.aiTags(userOf(req), req.params.id),
  );
}
