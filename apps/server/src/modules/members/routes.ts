import { membersApi as api } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { WorkspacesService } from "../workspaces/index.ts";
import type { MembersService } from "./service.ts";

export function membersRoutes(app: App, members: MembersService, workspaces: WorkspacesService) {
  addRoute(app, api.list, (req) => members.list(userOf(req), req.params.id));
  addRoute(app, api.setRole, (req) => members.setRole(userOf(req), req.params.id, req.params.userId, req.body.role));
  addRoute(app, api.remove, async (req) => {
    await members.remove(userOf(req), req.params.id, req.params.userId);
    return { status: "ok" as const };
  });
  addRoute(app, api.invites, (req) => members.listInvites(userOf(req), req.params.id));
  addRoute(app, api.invite, async (req, reply) =>
    reply.status(201).send(await members.invite(userOf(req), req.params.id, req.body.email, req.body.role)),
  );
  addRoute(app, api.revokeInvite, async (req) => {
    await members.revokeInvite(userOf(req), req.params.id, req.params.inviteId);
    return { status: "ok" as const };
  });
  addRoute(app, api.inviteInfo, (req) => members.inviteInfo(req.params.token));
  addRoute(app, api.acceptInvite, async (req) => {
    const actor = userOf(req);
    const workspaceId = await members.acceptInvite(actor.userId, actor.user.email, req.body.token);
    return { status: "ok" as const, data: await workspaces.get(actor, workspaceId) };
  });
}
