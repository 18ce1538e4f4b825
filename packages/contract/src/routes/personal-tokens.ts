import { OkBody } from "../common.ts";
import {
  CreatePersonalTokenBody,
  PersonalTokenCreated,
  PersonalTokenList,
  PersonalTokenParams,
} from "../personal-tokens.ts";
import { defineRoute } from "./define.ts";

const tag = "personal tokens";
const access = "user";

/** A user's personal access tokens (issue 36): only from a signed-in session, never with a token. */
export const personalTokensApi = {
  list: defineRoute({
    method: "GET",
    path: "/users/me/tokens",
    tag,
    summary: "List your personal access tokens (never their secrets)",
    access,
    sessionOnly: true,
    response: { 200: PersonalTokenList },
  }),
  create: defineRoute({
    method: "POST",
    path: "/users/me/tokens",
    tag,
    summary: "Create a personal access token: its secret is in this answer and never again",
    access,
    sessionOnly: true,
    body: CreatePersonalTokenBody,
    response: { 201: PersonalTokenCreated },
  }),
  revoke: defineRoute({
    method: "DELETE",
    path: "/users/me/tokens/:tokenId",
    tag,
    summary: "Revoke a personal access token: it is refused from now on",
    access,
    sessionOnly: true,
    params: PersonalTokenParams,
    response: { 200: OkBody },
  }),
};
