import type { BoardAbilities } from "@hangar/contract";
import { allows, type Grant } from "../../platform/access.ts";
import { action, anyVisitor } from "../../platform/policy.ts";

/** What may be done to boards. A visitor of a board link sees that board and its subtree, read-only. */
export const BOARD = {
  view: action("board.view", "view", anyVisitor),
  list: action("board.list", "view"),
  create: action("board.create", "edit"),
  edit: action("board.edit", "edit"),
  delete: action("board.delete", "edit"),
  share: action("board.share", "edit"),
};

export const boardAbilities = (grant: Grant): BoardAbilities => ({
  edit: allows(grant, BOARD.edit),
  delete: allows(grant, BOARD.delete),
  share: allows(grant, BOARD.share),
});
