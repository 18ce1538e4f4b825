import { sharesApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import type { SharesService } from "./service.ts";

export function sharesRoutes(app: App, shares: SharesService) {
  addRoute(app, api.get, (req) =>
    shares.get(req.actor, req.params.id, {
      type: req.params.contentType,
      objectId: req.params.objectId,
      boardId: req.query.board_id,
    }),
  );
  addRoute(app, api.update, (req) =>
    shares.update(
      req.actor,
      req.params.id,
      { type: req.params.contentType, objectId: req.params.objectId, boardId: req.body.board_id },
      req.body,
    ),
  );
  addRoute(app, api.remove, (req) =>
    shares.remove(req.actor, req.params.id, {
      type: req.params.contentType,
      objectId: req.params.objectId,
      boardId: req.query.board_id,
    }),
  );
}
