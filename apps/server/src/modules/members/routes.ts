import {
  AcceptInviteAnswer,
  CreateInviteBody,
  Invite,
  InviteInfo,
  InviteList,
  InviteParams,
  Member,
  MemberList,
  MemberParams,
  OkBody,
  TokenBody,
  TokenParams,
  UpdateMemberBody,
  WorkspaceParams,
} from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { WorkspacesService } from "../workspaces/index.ts";
import type { MembersService } from "./service.ts";

export function membersRoutes(app: App, members: MembersService, workspaces: WorkspacesService) {
  const ws = { access: "workspace" as const };
  const tags = ["members"];

  app.get(
    "/workspaces/:id/members",
    { config: ws, schema: { tags, params: WorkspaceParams, response: { 200: MemberList } } },
    (req) => members.list(userOf(req), req.params.id),
  );
  app.put(
    "/workspaces/:id/members/:userId",
    { config: ws, schema: { tags, params: MemberParams, body: UpdateMemberBody, response: { 200: Member } } },
    (req) => members.setRole(userOf(req), req.params.id, req.params.userId, req.body.role),
  );
  app.delete(
    "/workspaces/:id/members/:userId",
    { config: ws, schema: { tags, params: MemberParams, response: { 200: OkBody } } },
    async (req) => {
      await members.remove(userOf(req), req.params.id, req.params.userId);
      return { status: "ok" as const };
    },
  );

  app.get(
    "/workspaces/:id/invites",
    { config: ws, schema: { tags, params: WorkspaceParams, response: { 200: InviteList } } },
    (req) => members.listInvites(userOf(req), req.params.id),
  );
  app.post(
    "/workspaces/:id/invites",
    { config: ws, schema: { tags, params: WorkspaceParams, body: CreateInviteBody, response: { 201: Invite } } },
    async (req, reply) =>
      reply.status(201).send(await members.invite(userOf(req), req.params.id, req.body.email, req.body.role)),
  );
  app.delete(
    "/workspaces/:id/invites/:inviteId",
    { config: ws, schema: { tags, params: InviteParams, response: { 200: OkBody } } },
    async (req) => {
      await members.revokeInvite(userOf(req), req.params.id, req.params.inviteId);
      return { status: "ok" as const };
    },
  );

  app.get(
    "/invites/:token/info",
    { config: { access: "public" }, schema: { tags, params: TokenParams, response: { 200: InviteInfo } } },
    (req) => members.inviteInfo(req.params.token),
  );
  app.post(
    "/invites/accept",
    { config: { access: "user" }, schema: { tags, body: TokenBody, response: { 200: AcceptInviteAnswer } } },
    async (req) => {
      const actor = userOf(req);
      const workspaceId = await members.acceptInvite(actor.userId, actor.user.email, req.body.token);
      return { status: "ok" as const, data: await workspaces.get(actor, workspaceId) };
    },
  );
}
