import type { WorkspaceAbilities } from "@hangar/contract";
import { allows, type Grant } from "../../platform/access.ts";
import { action, WORKSPACE_VIEW } from "../../platform/policy.ts";

/** What may be done to a workspace itself (spec 01 §6). Visitors never act on a workspace. */
export const WORKSPACE = {
  view: WORKSPACE_VIEW,
  rename: action("workspace.rename", "admin"),
  delete: action("workspace.delete", "admin"),
  admin: action("workspace.admin", "admin"),
  upload: action("workspace.upload", "edit"),
  invite: action("member.invite", "admin"),
};

export const workspaceAbilities = (grant: Grant): WorkspaceAbilities => ({
  upload: allows(grant, WORKSPACE.upload),
  admin: allows(grant, WORKSPACE.admin),
  invite: allows(grant, WORKSPACE.invite),
  rename: allows(grant, WORKSPACE.rename),
  delete: allows(grant, WORKSPACE.delete),
});
