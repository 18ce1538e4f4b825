import {
  AssetIdsBody,
  Board,
  BoardAncestors,
  BoardAssetsAnswer,
  BoardList,
  BoardParams,
  BoardsQuery,
  CreateBoardBody,
  DeleteBoardAnswer,
  ReorderBody,
  RestoreAnswer,
  UpdateBoardBody,
  WorkspaceParams,
} from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { BoardsService } from "./service.ts";

export function boardsRoutes(app: App, boards: BoardsService) {
  const ws = { access: "workspace" as const };
  const tags = ["boards"];

  app.get(
    "/workspaces/:id/boards",
    { config: ws, schema: { tags, params: WorkspaceParams, querystring: BoardsQuery, response: { 200: BoardList } } },
    async (req, reply) => {
      const p = req.query.parent_id;
      const parentId = !p || p === "root" || p === "null" ? null : p;
      if (!req.query.recursive) return boards.list(userOf(req), req.params.id, { parentId });
      // Already JSON from PostgreSQL, in the Board shape (the tests parse it with the contract).
      const json = await boards.treeJson(userOf(req), req.params.id, parentId);
      return reply.type("application/json; charset=utf-8").send(json as unknown as Board[]);
    },
  );
  app.post(
    "/workspaces/:id/boards",
    { config: ws, schema: { tags, params: WorkspaceParams, body: CreateBoardBody, response: { 201: Board } } },
    async (req, reply) =>
      reply
        .status(201)
        .send(await boards.create(userOf(req), req.params.id, req.body.name, req.body.parent_id ?? null)),
  );
  app.post(
    "/workspaces/:id/boards/reorder",
    { config: ws, schema: { tags, params: WorkspaceParams, body: ReorderBody, response: { 200: BoardList } } },
    (req) => boards.reorder(userOf(req), req.params.id, req.body),
  );
  app.put(
    "/workspaces/:id/boards/:boardId",
    { config: ws, schema: { tags, params: BoardParams, body: UpdateBoardBody, response: { 200: Board } } },
    (req) => boards.update(userOf(req), req.params.id, req.params.boardId, req.body),
  );
  app.delete(
    "/workspaces/:id/boards/:boardId",
    { config: ws, schema: { tags, params: BoardParams, response: { 200: DeleteBoardAnswer } } },
    (req) => boards.remove(userOf(req), req.params.id, req.params.boardId),
  );
  app.post(
    "/workspaces/:id/boards/:boardId/restore",
    { config: ws, schema: { tags, params: BoardParams, response: { 200: RestoreAnswer } } },
    (req) => boards.restore(userOf(req), req.params.id, req.params.boardId),
  );
  app.get(
    "/workspaces/:id/boards/:boardId/ancestors",
    { config: ws, schema: { tags, params: BoardParams, response: { 200: BoardAncestors } } },
    (req) => boards.ancestors(userOf(req), req.params.id, req.params.boardId),
  );
  app.post(
    "/workspaces/:id/boards/:boardId/assets",
    { config: ws, schema: { tags, params: BoardParams, body: AssetIdsBody, response: { 200: BoardAssetsAnswer } } },
    (req) => boards.addAssets(userOf(req), req.params.id, req.params.boardId, req.body.asset_ids),
  );
  app.delete(
    "/workspaces/:id/boards/:boardId/assets",
    { config: ws, schema: { tags, params: BoardParams, body: AssetIdsBody, response: { 200: BoardAssetsAnswer } } },
    (req) => boards.removeAssets(userOf(req), req.params.id, req.params.boardId, req.body.asset_ids),
  );
}
