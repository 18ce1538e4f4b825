import type { RoleAbility, ShareFlags } from "@hangar/contract";

/**
 * One action a feature's `policy.ts` declares: the role-table ability a member needs, and whether
 * (by the link's flags) a share-link visitor may do it on content inside what the link shares.
 */
export interface Action {
  name: string;
  role: RoleAbility;
  visitor: false | ((flags: ShareFlags) => boolean);
}

export const action = (name: string, role: RoleAbility, visitor: Action["visitor"] = false): Action => ({
  name,
  role,
  visitor,
});

/** Visitors of a link may look at what it shares, whatever its flags. */
export const anyVisitor = () => true;

/** Seeing a workspace at all: what the session hook checks before any workspace route runs. */
export const WORKSPACE_VIEW = action("workspace.view", "view");
