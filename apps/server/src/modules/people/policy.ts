import { action } from "../../platform/policy.ts";

/**
 * People (issue 32): members look (COMMENTER too), editors name, hide, merge and move faces, admins
 * turn face recognition on or off. Share-link visitors get none of it.
 */
export const PEOPLE = {
  view: action("people.view", "view"),
  edit: action("people.edit", "edit"),
  settings: action("people.settings", "admin"),
};
