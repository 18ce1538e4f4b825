import { trashApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { TrashService } from "./service.ts";

export function trashRoutes(app: App, trash: TrashService) {
  addRoute(app, api.list, (req) => trash.list(userOf(req), req.params.id));
  addRoute(app, api.restore, (req) =>
    trash.restore(userOf(req), req.params.id, req.body.asset_ids, req.body.board_ids, req.body.version_ids),
  );
  addRoute(app, api.purge, (req) =>
    trash.purge(userOf(req), req.params.id, req.body.asset_ids, req.body.board_ids, req.body.version_ids),
  );
}
