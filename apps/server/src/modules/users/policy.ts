import { action } from "../../platform/policy.ts";

/**
 * What may be done with a person's account (the access layer's `account` resource): its owner sees
 * and changes it; someone who shares a live workspace with them sees their name and avatar; nobody
 * else finds it (404).
 */
export const USER = {
  view: action("user.view", "view"),
  edit: action("user.edit", "edit"),
};
