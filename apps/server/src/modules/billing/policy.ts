import { action } from "../../platform/policy.ts";

/** Billing (issue 18): every member sees the plan and usage; only ADMINs change or pay for it. */
export const BILLING = {
  view: action("billing.view", "view"),
  manage: action("billing.manage", "admin"),
};
