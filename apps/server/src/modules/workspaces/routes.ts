import { workspacesApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { WorkspacesService } from "./service.ts";

export function workspacesRoutes(app: App, workspaces: WorkspacesService) {
  addRoute(app, api.list, (req) => workspaces.list(userOf(req)));
  addRoute(app, api.create, async (req, reply) =>
    reply.status(201).send(await workspaces.create(userOf(req), req.body.name)),
  );
  addRoute(app, api.get, (req) => workspaces.get(userOf(req), req.params.id));
  addRoute(app, api.rename, (req) => workspaces.rename(userOf(req), req.params.id, req.body.name));
  addRoute(app, api.remove, async (req) => {
    await workspaces.remove(userOf(req), req.params.id);
    return { status: "ok" as const };
  });
  addRoute(app, api.restore, (req) => workspaces.restore(userOf(req), req.params.id));
}
