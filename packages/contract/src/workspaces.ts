import { z } from "zod";
import { roleCan, WorkspaceAbilities } from "./access.ts";
import { Id } from "./common.ts";

export const ROLES = ["ADMIN", "EDITOR", "COMMENTER"] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const WorkspaceName = z.string().trim().min(1, "Name is required").max(100, "Name is too long");

export const Workspace = z.object({
  id: Id,
  name: z.string(),
  user_role: Role,
  abilities: WorkspaceAbilities,
  created_at: z.string(),
  member_count: z.number().int(),
});
export type Workspace = z.infer<typeof Workspace>;

export const WorkspaceParams = z.object({ id: Id });
export const CreateWorkspaceBody = z.object({ name: WorkspaceName });
export const UpdateWorkspaceBody = z.object({ name: WorkspaceName });
export const WorkspaceList = z.array(Workspace);

export const Member = z.object({
  user_id: Id,
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  avatar_url: z.string().nullable(),
  role: Role,
  joined_at: z.string(),
});
export type Member = z.infer<typeof Member>;
export const MemberList = z.array(Member);
export const MemberParams = z.object({ id: Id, userId: Id });
export const UpdateMemberBody = z.object({ role: Role });

export const INVITE_TTL_DAYS = 7;
export const Invite = z.object({
  id: Id,
  email: z.string(),
  role: Role,
  expires_at: z.string(),
  created_at: z.string(),
  invited_by: z.string(),
});
export type Invite = z.infer<typeof Invite>;
export const InviteList = z.array(Invite);
export const CreateInviteBody = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: "Enter a valid e-mail address" })),
  role: Role.default("EDITOR"),
});
export const InviteParams = z.object({ id: Id, inviteId: Id });

export const InviteInfo = z.object({
  workspace_id: Id,
  workspace_name: z.string(),
  email: z.string(),
  role: Role,
  invited_by: z.string(),
  expires_at: z.string(),
  /** Whether an account with the invited e-mail exists (the token holder already knows the e-mail). */
  account_exists: z.boolean(),
});
export type InviteInfo = z.infer<typeof InviteInfo>;
export const AcceptInviteAnswer = z.object({ status: z.literal("ok"), data: Workspace });

/** Who may do what (spec 01 §6), read from the one role table. */
export const canEdit = (role: Role | null | undefined) => roleCan(role, "edit");
export const canAdmin = (role: Role | null | undefined) => roleCan(role, "admin");
