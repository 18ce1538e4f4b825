import { action } from "../../platform/policy.ts";

/** Workspace API keys (issue 36): ADMINs create, list and revoke them; no visitor ever. */
export const API_KEY = {
  manage: action("api_key.manage", "admin"),
};
