import { OkBody } from "../common.ts";
import { TokenBody, TokenParams } from "../users.ts";
import {
  AcceptInviteAnswer,
  CreateInviteBody,
  CreateWorkspaceBody,
  Invite,
  InviteInfo,
  InviteList,
  InviteParams,
  Member,
  MemberList,
  MemberParams,
  UpdateMemberBody,
  UpdateWorkspaceBody,
  Workspace,
  WorkspaceList,
  WorkspaceParams,
} from "../workspaces.ts";
import { defineRoute } from "./define.ts";

const tag = "workspaces";

export const workspacesApi = {
  list: defineRoute({ method: "GET", path: "/workspaces", tag, access: "user", response: { 200: WorkspaceList } }),
  create: defineRoute({
    method: "POST",
    path: "/workspaces",
    tag,
    access: "user",
    body: CreateWorkspaceBody,
    response: { 201: Workspace },
  }),
  get: defineRoute({
    method: "GET",
    path: "/workspaces/:id",
    tag,
    access: "workspace",
    params: WorkspaceParams,
    response: { 200: Workspace },
  }),
  rename: defineRoute({
    method: "PUT",
    path: "/workspaces/:id",
    tag,
    access: "workspace",
    params: WorkspaceParams,
    body: UpdateWorkspaceBody,
    response: { 200: Workspace },
  }),
  remove: defineRoute({
    method: "DELETE",
    path: "/workspaces/:id",
    tag,
    access: "workspace",
    params: WorkspaceParams,
    response: { 200: OkBody },
  }),
  // The workspace is deleted, so the live-membership guard cannot apply: the service checks ADMIN and answers 404.
  restore: defineRoute({
    method: "POST",
    path: "/workspaces/:id/restore",
    tag,
    access: "user",
    params: WorkspaceParams,
    response: { 200: Workspace },
  }),
};

const members = "members";

export const membersApi = {
  list: defineRoute({
    method: "GET",
    path: "/workspaces/:id/members",
    tag: members,
    access: "workspace",
    params: WorkspaceParams,
    response: { 200: MemberList },
  }),
  setRole: defineRoute({
    method: "PUT",
    path: "/workspaces/:id/members/:userId",
    tag: members,
    access: "workspace",
    params: MemberParams,
    body: UpdateMemberBody,
    response: { 200: Member },
  }),
  remove: defineRoute({
    method: "DELETE",
    path: "/workspaces/:id/members/:userId",
    tag: members,
    access: "workspace",
    params: MemberParams,
    response: { 200: OkBody },
  }),
  invites: defineRoute({
    method: "GET",
    path: "/workspaces/:id/invites",
    tag: members,
    access: "workspace",
    params: WorkspaceParams,
    response: { 200: InviteList },
  }),
  invite: defineRoute({
    method: "POST",
    path: "/workspaces/:id/invites",
    tag: members,
    access: "workspace",
    params: WorkspaceParams,
    body: CreateInviteBody,
    response: { 201: Invite },
  }),
  revokeInvite: defineRoute({
    method: "DELETE",
    path: "/workspaces/:id/invites/:inviteId",
    tag: members,
    access: "workspace",
    params: InviteParams,
    response: { 200: OkBody },
  }),
  inviteInfo: defineRoute({
    method: "GET",
    path: "/invites/:token/info",
    tag: members,
    access: "public",
    params: TokenParams,
    response: { 200: InviteInfo },
  }),
  acceptInvite: defineRoute({
    method: "POST",
    path: "/invites/accept",
    tag: members,
    access: "user",
    body: TokenBody,
    response: { 200: AcceptInviteAnswer },
  }),
};
