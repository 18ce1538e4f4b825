import { z } from "zod";
import type { Role } from "./workspaces.ts";

/**
 * The one role table (spec 01 §6): what each member role may do. Every role check in the server's
 * policies and the web's `canEdit`/`canAdmin` reads this table; nothing else lists roles.
 */
export const ROLE_ABILITIES = {
  ADMIN: ["view", "comment", "edit", "admin"],
  EDITOR: ["view", "comment", "edit"],
  COMMENTER: ["view", "comment"],
} as const satisfies Record<Role, readonly string[]>;
export type RoleAbility = (typeof ROLE_ABILITIES)[Role][number];

/** Whether a role (null: not a member) has an ability in the role table. */
export const roleCan = (role: Role | null | undefined, ability: RoleAbility): boolean =>
  !!role && (ROLE_ABILITIES[role] as readonly RoleAbility[]).includes(ability);

/** A share link's switches (spec 02 §3); a visitor may do what they allow and nothing more. */
export const ShareFlags = z.object({
  allow_commenting: z.boolean(),
  show_comments: z.boolean(),
  show_custom_fields: z.boolean(),
  allow_editing_custom_fields: z.boolean(),
  allow_downloads: z.boolean(),
  /**
   * Versions (issue 29): visitors may list the asset's versions, switch between them and read each
   * version's comments. Off (the default): they see the current version and its comments only.
   */
  show_versions: z.boolean(),
});
export type ShareFlags = z.infer<typeof ShareFlags>;
/** The flags of a link created without any (spec 02 §3). */
export const DEFAULT_SHARE_FLAGS: ShareFlags = {
  allow_commenting: true,
  show_comments: true,
  show_custom_fields: true,
  allow_editing_custom_fields: false,
  allow_downloads: false,
  show_versions: false,
};

/** What the caller may do with an entity in an answer, so the UI hides what the server would refuse. */
export const AssetAbilities = z.object({
  edit: z.boolean(),
  delete: z.boolean(),
  comment: z.boolean(),
  share: z.boolean(),
  download: z.boolean(),
});
export type AssetAbilities = z.infer<typeof AssetAbilities>;
export const BoardAbilities = z.object({ edit: z.boolean(), delete: z.boolean(), share: z.boolean() });
export type BoardAbilities = z.infer<typeof BoardAbilities>;
export const WorkspaceAbilities = z.object({
  upload: z.boolean(),
  admin: z.boolean(),
  invite: z.boolean(),
  rename: z.boolean(),
  delete: z.boolean(),
});
export type WorkspaceAbilities = z.infer<typeof WorkspaceAbilities>;
