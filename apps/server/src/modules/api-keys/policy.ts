import { action } from "../../platform/policy.ts";

/** Workspace API keys (issue 36): ADMINs create, list and revoke them; no visitor ever. */
export const API_KEY = {
  manage: action("api_key.manage", "admin"),
};

/** Personal access tokens: on the account (its owner only; nobody else even finds them). */
export const PERSONAL_TOKEN = {
  manage: action("personal_token.manage", "edit"),
};
