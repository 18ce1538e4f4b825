import {
  CreateWorkspaceBody,
  OkBody,
  UpdateWorkspaceBody,
  Workspace,
  WorkspaceList,
  WorkspaceParams,
} from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { WorkspacesService } from "./service.ts";

export function workspacesRoutes(app: App, workspaces: WorkspacesService) {
  const ws = { access: "workspace" as const };
  const tags = ["workspaces"];

  app.get("/workspaces", { config: { access: "user" }, schema: { tags, response: { 200: WorkspaceList } } }, (req) =>
    workspaces.list(userOf(req)),
  );
  app.post(
    "/workspaces",
    { config: { access: "user" }, schema: { tags, body: CreateWorkspaceBody, response: { 201: Workspace } } },
    async (req, reply) => reply.status(201).send(await workspaces.create(userOf(req), req.body.name)),
  );
  app.get(
    "/workspaces/:id",
    { config: ws, schema: { tags, params: WorkspaceParams, response: { 200: Workspace } } },
    (req) => workspaces.get(userOf(req), req.params.id),
  );
  app.put(
    "/workspaces/:id",
    { config: ws, schema: { tags, params: WorkspaceParams, body: UpdateWorkspaceBody, response: { 200: Workspace } } },
    (req) => workspaces.rename(userOf(req), req.params.id, req.body.name),
  );
  app.delete(
    "/workspaces/:id",
    { config: ws, schema: { tags, params: WorkspaceParams, response: { 200: OkBody } } },
    async (req) => {
      await workspaces.remove(userOf(req), req.params.id);
      return { status: "ok" as const };
    },
  );
  // The workspace is deleted, so the live-membership guard cannot apply: the service checks ADMIN and answers 404.
  app.post(
    "/workspaces/:id/restore",
    { config: { access: "user" }, schema: { tags, params: WorkspaceParams, response: { 200: Workspace } } },
    (req) => workspaces.restore(userOf(req), req.params.id),
  );
}
