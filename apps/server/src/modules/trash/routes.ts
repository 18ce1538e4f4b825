import { TrashAnswer, TrashList, TrashSelection, WorkspaceParams } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { TrashService } from "./service.ts";

export function trashRoutes(app: App, trash: TrashService) {
  const ws = { access: "workspace" as const };
  const tags = ["recently-deleted"];
  app.get(
    "/workspaces/:id/recently-deleted",
    { config: ws, schema: { tags, params: WorkspaceParams, response: { 200: TrashList } } },
    (req) => trash.list(userOf(req), req.params.id),
  );
  app.post(
    "/workspaces/:id/recently-deleted/restore",
    { config: ws, schema: { tags, params: WorkspaceParams, body: TrashSelection, response: { 200: TrashAnswer } } },
    (req) => trash.restore(userOf(req), req.params.id, req.body.asset_ids, req.body.board_ids),
  );
  app.post(
    "/workspaces/:id/recently-deleted/purge",
    { config: ws, schema: { tags, params: WorkspaceParams, body: TrashSelection, response: { 200: TrashAnswer } } },
    (req) => trash.purge(userOf(req), req.params.id, req.body.asset_ids, req.body.board_ids),
  );
}
