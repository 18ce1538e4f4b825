import { INVITE_TTL_DAYS, type Invite, type InviteInfo, type Member, type Role } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import { composeMail } from "../../mail/compose.ts";
import type { Mailer } from "../../mail/mailer.ts";
import { type Access, inWorkspace } from "../../platform/access.ts";
import type { UserActor } from "../../platform/actor.ts";
import { conflict, forbidden, notFound } from "../../platform/errors.ts";
import type { Limit, RateLimiter } from "../../platform/rate-limit.ts";
import { hashToken, newToken } from "../../platform/tokens.ts";
import { avatarUrl, type UsersService } from "../users/index.ts";
import { MEMBER } from "./policy.ts";
import { membersRepo } from "./repo.ts";

type MemberRow = NonNullable<Awaited<ReturnType<typeof membersRepo.get>>>;
const toMember = (r: MemberRow): Member => ({
  user_id: r.id,
  email: r.email,
  first_name: r.first_name,
  last_name: r.last_name,
  avatar_url: avatarUrl(r),
  role: r.role,
  joined_at: r.created_at.toISOString(),
});
const displayName = (r: { first_name: string | null; last_name: string | null; inviter_email: string | null }) =>
  `${r.first_name ?? ""} ${r.last_name ?? ""}`.trim() || r.inviter_email || "Someone";

export const INVITE_LIMIT_ACCOUNT: Limit = { max: 30, windowSeconds: 3600 };
export const INVITE_LIMIT_RECIPIENT: Limit = { max: 3, windowSeconds: 24 * 3600 };

const LAST_ADMIN = "A workspace needs at least one admin: make someone else an admin first.";

export function createMembersService(deps: {
  db: Db;
  access: Access;
  mailer: Mailer;
  users: UsersService;
  publicUrl: string;
  limiter: RateLimiter;
  /** The plan's seat limit (modules/billing), checked after locking the workspace's billing row. */
  limits?: { checkSeat(tx: Db, workspaceId: string, what: { invite: string } | "accept"): Promise<void> };
  /** A workspace's own rule on whom it may invite (modules/sso: addresses that can sign in through SSO). */
  inviteRule?: (workspaceId: string, email: string) => Promise<void>;
}) {
  const { db, access, mailer } = deps;

  async function getMember(workspaceId: string, userId: string): Promise<Member> {
    const row = await membersRepo.get(db, workspaceId, userId);
    if (!row) throw notFound("Member not found.");
    return toMember(row);
  }

  /** Joins the user to the invited workspace; the invitation must have been sent to their address. */
  async function acceptInvite(userId: string, email: string, token: string): Promise<string> {
    const inv = await membersRepo.findLiveInvite(db, hashToken(token));
    if (!inv) throw notFound("This invitation is invalid or has expired.");
    if (inv.email.toLowerCase() !== email.toLowerCase()) {
      throw forbidden(`This invitation was sent to ${inv.email}. Sign in with that address to accept it.`);
    }
    await db.transaction().execute(async (tx) => {
      await deps.limits?.checkSeat(tx, inv.workspace_id, "accept");
      if (!(await membersRepo.markAccepted(tx, inv.id, userId)))
        throw notFound("This invitation is invalid or has expired.");
      await membersRepo.add(tx, inv.workspace_id, userId, inv.role);
    });
    return inv.workspace_id;
  }

  return {
    acceptInvite,
    async list(actor: UserActor, workspaceId: string): Promise<Member[]> {
      await access.require(actor, MEMBER.list, inWorkspace(workspaceId));
      return (await membersRepo.list(db, workspaceId)).map(toMember);
    },
    /** One member as the list answers it (webhooks' member.added). */
    async get(actor: UserActor, workspaceId: string, userId: string): Promise<Member> {
      await access.require(actor, MEMBER.list, inWorkspace(workspaceId));
      return getMember(workspaceId, userId);
    },
    async setRole(actor: UserActor, workspaceId: string, userId: string, role: Role): Promise<Member> {
      await access.require(actor, MEMBER.manage, inWorkspace(workspaceId));
      await db.transaction().execute(async (tx) => {
        const admins = await membersRepo.lockAdmins(tx, workspaceId);
        if (!(await membersRepo.get(tx, workspaceId, userId))) throw notFound("Member not found.");
        if (role !== "ADMIN" && admins.length === 1 && admins[0] === userId) throw conflict(LAST_ADMIN);
        await membersRepo.setRole(tx, workspaceId, userId, role);
      });
      return getMember(workspaceId, userId);
    },
    /** ADMINs remove anyone; any member may remove themselves (leave). */
    async remove(actor: UserActor, workspaceId: string, userId: string): Promise<void> {
      await access.require(actor, userId === actor.userId ? MEMBER.leave : MEMBER.manage, inWorkspace(workspaceId));
      await db.transaction().execute(async (tx) => {
        const admins = await membersRepo.lockAdmins(tx, workspaceId);
        if (!(await membersRepo.get(tx, workspaceId, userId))) throw notFound("Member not found.");
        if (admins.length === 1 && admins[0] === userId) throw conflict(LAST_ADMIN);
        await membersRepo.remove(tx, workspaceId, userId);
      });
      // Only this workspace's access ends: its membership row is gone, and cached roles in this
      // workspace are dropped (this process bumps the workspace after a mutation; others hear the
      // database's notification). The member's sessions and other workspaces are untouched.
    },

    async listInvites(actor: UserActor, workspaceId: string): Promise<Invite[]> {
      await access.require(actor, MEMBER.invite, inWorkspace(workspaceId));
      return (await membersRepo.listInvites(db, workspaceId)).map((r) => ({
        id: r.id,
        email: r.email,
        role: r.role,
        expires_at: r.expires_at.toISOString(),
        created_at: r.created_at.toISOString(),
        invited_by: displayName(r),
      }));
    },
    async invite(actor: UserActor, workspaceId: string, email: string, role: Role): Promise<Invite> {
      await access.require(actor, MEMBER.invite, inWorkspace(workspaceId));
      const existing = await deps.users.findByEmail(email);
      if (existing && (await membersRepo.get(db, workspaceId, existing.id))) {
        throw conflict(`${email} is already a member of this workspace.`);
      }
      await deps.inviteRule?.(workspaceId, email);
      // Invitations are mail sent on a member's behalf: limited per inviter and per recipient.
      await deps.limiter.consume(
        [
          [`mail:acct:${actor.userId}`, INVITE_LIMIT_ACCOUNT],
          [`mail:invite-to:${email.toLowerCase()}`, INVITE_LIMIT_RECIPIENT],
        ],
        "Too many invitations sent. Try again later.",
      );
      const token = newToken();
      const expiresAt = new Date(Date.now() + INVITE_TTL_DAYS * 86_400_000);
      const { id } = await db.transaction().execute(async (tx) => {
        await deps.limits?.checkSeat(tx, workspaceId, { invite: email });
        return membersRepo.createInvite(tx, {
          workspaceId,
          email,
          role,
          tokenHash: hashToken(token),
          invitedBy: actor.userId,
          expiresAt,
        });
      });
      const inv = await membersRepo.findLiveInvite(db, hashToken(token));
      const inviter = `${actor.user.first_name} ${actor.user.last_name}`.trim() || actor.user.email;
      const link = `${deps.publicUrl}/a/invite/${token}`;
      // The subject is fixed: names are chosen by users and stay inert text in the body.
      await mailer.send(
        composeMail({
          to: email,
          subject: "A teammate invited you to a workspace on Hangar",
          paragraphs: [
            `${inviter} invited you to join "${inv?.workspace_name ?? "a workspace"}" on Hangar as ${role}.`,
          ],
          link: { label: "Accept the invitation", url: link },
          footer: `The link works once and expires in ${INVITE_TTL_DAYS} days.`,
        }),
      );
      return {
        id,
        email,
        role,
        expires_at: expiresAt.toISOString(),
        created_at: new Date().toISOString(),
        invited_by: inviter,
      };
    },
    async revokeInvite(actor: UserActor, workspaceId: string, inviteId: string): Promise<void> {
      await access.require(actor, MEMBER.invite, inWorkspace(workspaceId));
      if (!(await membersRepo.revokeInvite(db, workspaceId, inviteId))) throw notFound("Invitation not found.");
    },
    async inviteInfo(token: string): Promise<InviteInfo> {
      const inv = await membersRepo.findLiveInvite(db, hashToken(token));
      if (!inv) throw notFound("This invitation is invalid or has expired.");
      return {
        workspace_id: inv.workspace_id,
        workspace_name: inv.workspace_name,
        email: inv.email,
        role: inv.role,
        invited_by: displayName(inv),
        expires_at: inv.expires_at.toISOString(),
        account_exists: (await deps.users.findByEmail(inv.email)) !== undefined,
      };
    },
    /** For sign-up with an invite token: the invitation's address, if the token is live. */
    async inviteEmail(token: string): Promise<string | null> {
      return (await membersRepo.findLiveInvite(db, hashToken(token)))?.email ?? null;
    },
  };
}
export type MembersService = ReturnType<typeof createMembersService>;
