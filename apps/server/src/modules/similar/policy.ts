import { action } from "../../platform/policy.ts";

/**
 * Similar pictures and duplicates (issue 32): members look (COMMENTER too), editors resolve groups,
 * admins set the workspace's near-duplicate distance. Share-link visitors get none of it.
 */
export const SIMILAR = {
  view: action("similar.view", "view"),
  resolve: action("duplicates.resolve", "edit"),
  settings: action("duplicates.settings", "admin"),
};
