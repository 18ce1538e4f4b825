import { action } from "../../platform/policy.ts";

/**
 * Custom fields (spec 02 §6, issue 16): ADMIN manages fields and options; ADMIN and EDITOR set values;
 * every member reads. A share-link visitor reads values when the link shows fields and sets them when
 * it allows editing them (the share-link work wires that in).
 */
export const FIELD = {
  view: action("field.view", "view", (f) => f.show_custom_fields),
  manage: action("field.manage", "admin"),
  setValue: action("field.set", "edit", (f) => f.show_custom_fields && f.allow_editing_custom_fields),
};
