import {
  SignInOptionsAnswer,
  SsoCallbackQuery,
  SsoStartQuery,
  UpdateWorkspaceSsoBody,
  WorkspaceSsoAnswer,
} from "../sso.ts";
import { WorkspaceParams } from "../workspaces.ts";
import { defineRoute } from "./define.ts";

const tag = "sso";

/**
 * Single sign-on (issue 36): the browser is sent to the OpenID provider and back. `start` and
 * `callback` are top-level navigations answering redirects (no JSON); their errors go to the login
 * page as `?sso_error=` with a readable text.
 */
export const ssoApi = {
  options: defineRoute({
    method: "GET",
    path: "/auth/options",
    summary: "How one may sign in here: single sign-on (its button) and whether passwords are on",
    tag,
    access: "public",
    response: { 200: SignInOptionsAnswer },
  }),
  start: defineRoute({
    method: "GET",
    path: "/auth/sso/start",
    summary: "Start a single sign-on: redirects to the OpenID provider (authorization code with PKCE, state, nonce)",
    errors: [409],
    tag,
    access: "public",
    query: SsoStartQuery,
    answer: "redirect",
  }),
  callback: defineRoute({
    method: "GET",
    path: "/auth/sso/callback",
    summary: "The provider's redirect back: signs in (the session cookie) and redirects into the app",
    tag,
    access: "public",
    query: SsoCallbackQuery,
    answer: "redirect",
  }),
  workspaceGet: defineRoute({
    method: "GET",
    path: "/workspaces/:id/sso",
    summary: "The workspace's single sign-on requirement, and whether the server offers SSO",
    tag,
    access: "workspace",
    params: WorkspaceParams,
    response: { 200: WorkspaceSsoAnswer },
  }),
  workspaceUpdate: defineRoute({
    method: "PUT",
    path: "/workspaces/:id/sso",
    summary: "Require (or stop requiring) single sign-on for the workspace's members (ADMIN)",
    errors: [409],
    tag,
    access: "workspace",
    params: WorkspaceParams,
    body: UpdateWorkspaceSsoBody,
    response: { 200: WorkspaceSsoAnswer },
  }),
};
