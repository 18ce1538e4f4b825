import { action } from "../../platform/policy.ts";

/**
 * Usage rights (issue 33): every member reads them; ADMIN and EDITOR set them (one asset or many).
 * Visitors of public links never reach these routes: what they see is decided by the expiry alone.
 */
export const RIGHTS = {
  view: action("rights.view", "view"),
  edit: action("rights.edit", "edit"),
};
