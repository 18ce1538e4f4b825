import { action, anyVisitor } from "../../platform/policy.ts";

/**
 * AI actions (issue 16): ADMIN manages them and starts runs; members read results and OCR text.
 * The text read in an asset is part of its details, which a link's visitors see whatever its flags
 * (spec 02 §6: Details are read-only in shared view), so they read it too, for what the link shares.
 */
export const AI = {
  view: action("ai.view", "view"),
  readText: action("ai.text", "view", anyVisitor),
  manage: action("ai.manage", "admin"),
};
