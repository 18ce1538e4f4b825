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
  TrashAnswer,
  TrashList,
  TrashSelection,
  UpdateAssetBody,
} from "../assets.ts";
import { AssetListAnswer, AssetListBody } from "../listing.ts";
import { WorkspaceParams } from "../workspaces.ts";
import { defineRoute } from "./define.ts";

const tag = "assets";
const access = "workspace";

export const assetsApi = {
  list: defineRoute({
    method: "POST",
    path: "/workspaces/:id/assets",
    tag,
    summary: "List assets: the filter payload of spec 01 §3 (semantics in @hangar/contract listing.ts)",
    access,
    reads: true,
    params: WorkspaceParams,
    body: AssetListBody,
    response: { 200: AssetListAnswer },
  }),
  get: defineRoute({
    method: "GET",
    path: "/workspaces/:id/assets/:assetId",
    tag,
    access,
    params: AssetParams,
    response: { 200: Asset },
  }),
  update: defineRoute({
    method: "PUT",
    path: "/workspaces/:id/assets/:assetId",
    tag,
    access,
    params: AssetParams,
    body: UpdateAssetBody,
    response: { 200: Asset },
  }),
  setTags: defineRoute({
    method: "POST",
    path: "/workspaces/:id/assets/tags",
    tag,
    access,
    params: WorkspaceParams,
    body: SetTagsBody,
    response: { 200: CountAnswer },
  }),
  setFavorite: defineRoute({
    method: "POST",
    path: "/workspaces/:id/assets/favorites",
    tag,
    access,
    params: WorkspaceParams,
    body: FavoritesBody,
    response: { 200: CountAnswer },
  }),
  move: defineRoute({
    method: "POST",
    path: "/workspaces/:id/assets/move",
    tag,
    access,
    params: WorkspaceParams,
    body: MoveAssetsBody,
    response: { 200: CountAnswer },
  }),
  remove: defineRoute({
    method: "DELETE",
    path: "/workspaces/:id/assets",
    tag,
    access,
    params: WorkspaceParams,
    body: DeleteAssetsBody,
    response: { 200: CountAnswer },
  }),
  tags: defineRoute({
    method: "GET",
    path: "/workspaces/:id/tags",
    tag,
    access,
    params: WorkspaceParams,
    response: { 200: TagList },
  }),
  aiTags: defineRoute({
    method: "GET",
    path: "/workspaces/:id/ai-tags",
    tag,
    access,
    params: WorkspaceParams,
    response: { 200: AiTagList },
  }),
};

const trash = "recently-deleted";

export const trashApi = {
  list: defineRoute({
    method: "GET",
    path: "/workspaces/:id/recently-deleted",
    tag: trash,
    access,
    params: WorkspaceParams,
    response: { 200: TrashList },
  }),
  restore: defineRoute({
    method: "POST",
    path: "/workspaces/:id/recently-deleted/restore",
    tag: trash,
    access,
    params: WorkspaceParams,
    body: TrashSelection,
    response: { 200: TrashAnswer },
  }),
  purge: defineRoute({
    method: "POST",
    path: "/workspaces/:id/recently-deleted/purge",
    tag: trash,
    access,
    params: WorkspaceParams,
    body: TrashSelection,
    response: { 200: TrashAnswer },
  }),
};
