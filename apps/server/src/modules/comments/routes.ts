import { commentsApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import type { CommentsService } from "./service.ts";

export function commentsRoutes(app: App, comments: CommentsService) {
  addRoute(app, api.list, (req) => comments.list(req.actor, req.params.id, req.query));
  addRoute(app, api.create, async (req, reply) =>
    reply.status(201).send(await comments.create(req.actor, req.params.id, req.body)),
  );
  addRoute(app, api.get, (req) => comments.get(req.actor, req.params.id, req.params.commentId));
  addRoute(app, api.update, (req) => comments.update(req.actor, req.params.id, req.params.commentId, req.body));
  addRoute(app, api.remove, (req) => comments.remove(req.actor, req.params.id, req.params.commentId));
  addRoute(app, api.resolve, (req) =>
    comments.resolve(req.actor, req.params.id, req.params.commentId, req.body.resolved),
  );
  addRoute(app, api.export, async (req, reply) => {
    const file = await comments.exportFile(req.actor, req.params.id, req.query);
    return reply
      .header("Content-Type", file.contentType)
      .header("Content-Disposition", `attachment; filename="${file.filename}"`)
      .header("Cache-Control", "no-store")
      .send(file.body);
  });
}
