import { boardsApi as api, type Board } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { BoardsService } from "./service.ts";

export function boardsRoutes(app: App, boards: BoardsService) {
  addRoute(app, api.list, async (req, reply) => {
    const p = req.query.parent_id;
    const parentId = !p || p === "root" || p === "null" ? null : p;
    if (!req.query.recursive) return boards.list(userOf(req), req.params.id, { parentId });
    // Already JSON from PostgreSQL, in the Board shape (the tests parse it with the contract).
    const json = await boards.treeJson(userOf(req), req.params.id, parentId);
    return reply.type("application/json; charset=utf-8").send(json as unknown as Board[]);
  });
  addRoute(app, api.create, async (req, reply) =>
    reply
      .status(201)
      .send(
        await boards.create(userOf(req), req.params.id, req.body.name, req.body.parent_id ?? null, req.body.filter),
      ),
  );
  addRoute(app, api.reorder, (req) => boards.reorder(userOf(req), req.params.id, req.body));
  addRoute(app, api.update, (req) => boards.update(userOf(req), req.params.id, req.params.boardId, req.body));
  addRoute(app, api.remove, (req) => boards.remove(userOf(req), req.params.id, req.params.boardId));
  addRoute(app, api.restore, (req) => boards.restore(userOf(req), req.params.id, req.params.boardId));
  addRoute(app, api.ancestors, (req) => boards.ancestors(userOf(req), req.params.id, req.params.boardId));
  addRoute(app, api.addAssets, (req) =>
    boards.addAssets(userOf(req), req.params.id, req.params.boardId, req.body.asset_ids),
  );
  addRoute(app, api.removeAssets, (req) =>
    boards.removeAssets(userOf(req), req.params.id, req.params.boardId, req.body.asset_ids),
  );
}
