import { ApiKeyCreated, ApiKeyList, ApiKeyParams, CreateApiKeyBody } from "../api-keys.ts";
import { OkBody } from "../common.ts";
import { WorkspaceParams } from "../workspaces.ts";
import { defineRoute } from "./define.ts";

const tag = "api keys";
const access = "workspace";

/** Workspace API keys (issue 36): ADMINs only. */
export const apiKeysApi = {
  list: defineRoute({
    method: "GET",
    path: "/workspaces/:id/api-keys",
    sessionOnly: true,
    tag,
    summary: "List the workspace's API keys (never their secrets)",
    access,
    params: WorkspaceParams,
    response: { 200: ApiKeyList },
  }),
  create: defineRoute({
    method: "POST",
    path: "/workspaces/:id/api-keys",
    sessionOnly: true,
    tag,
    summary: "Create an API key: its secret is in this answer and never again",
    access,
    params: WorkspaceParams,
    body: CreateApiKeyBody,
    response: { 201: ApiKeyCreated },
  }),
  revoke: defineRoute({
    method: "DELETE",
    path: "/workspaces/:id/api-keys/:keyId",
    sessionOnly: true,
    tag,
    summary: "Revoke an API key: it is refused from now on",
    access,
    params: ApiKeyParams,
    response: { 200: OkBody },
  }),
};
