import { action } from "../../platform/policy.ts";

/** Webhooks (issue 36): ADMINs register, change, test and read the log of endpoints; nobody else. */
export const WEBHOOK = {
  manage: action("webhook.manage", "admin"),
};
