import { action } from "../../platform/policy.ts";

/** Recently deleted: every member sees it; editors restore and purge. */
export const TRASH = {
  view: action("trash.view", "view"),
  restore: action("trash.restore", "edit"),
  purge: action("trash.purge", "edit"),
};
