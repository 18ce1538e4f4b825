import { AiTagList, Asset, AssetParams, TagList, WorkspaceParams } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { AssetsService } from "./service.ts";

export function assetsRoutes(app: App, assets: AssetsService) {
  const ws = { access: "workspace" as const };
  const tags = ["assets"];
  app.get(
    "/workspaces/:id/assets/:assetId",
    { config: ws, schema: { tags, params: AssetParams, response: { 200: Asset } } },
    (req) => assets.get(userOf(req), req.params.id, req.params.assetId),
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
