import { action } from "../../platform/policy.ts";

/** The audit log (issue 36): ADMINs read, export and set its retention; members read an object's history. */
export const AUDIT = {
  read: action("audit.read", "admin"),
  history: action("audit.history", "view"),
};
