import { action } from "../../platform/policy.ts";

/** AI actions (issue 16): ADMIN manages them and starts runs; members read results and OCR text. */
export const AI = {
  view: action("ai.view", "view"),
  manage: action("ai.manage", "admin"),
};
