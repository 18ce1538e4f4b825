import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { RoleColumn } from "../../db/types.ts";

export const membersRepo = {
  list(db: Db, workspaceId: string) {
    return db
      .selectFrom("memberships as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .select(["u.id", "u.email", "u.first_name", "u.last_name", "u.avatar_updated_at", "m.role", "m.created_at"])
      .where("m.workspace_id", "=", workspaceId)
      .orderBy("u.first_name")
      .orderBy("u.last_name")
      .orderBy("u.email")
      .execute();
  },
  get(db: Db, workspaceId: string, userId: string) {
    return db
      .selectFrom("memberships as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .select(["u.id", "u.email", "u.first_name", "u.last_name", "u.avatar_updated_at", "m.role", "m.created_at"])
      .where("m.workspace_id", "=", workspaceId)
      .where("m.user_id", "=", userId)
      .executeTakeFirst();
  },
  /** Locks the workspace's admin rows so two concurrent demotions cannot remove the last admin. */
  async lockAdmins(db: Db, workspaceId: string): Promise<string[]> {
    const rows = await db
      .selectFrom("memberships")
      .select("user_id")
      .where("workspace_id", "=", workspaceId)
      .where("role", "=", "ADMIN")
      .forUpdate()
      .execute();
    return rows.map((r) => r.user_id);
  },
  async setRole(db: Db, workspaceId: string, userId: string, role: RoleColumn) {
    await db
      .updateTable("memberships")
      .set({ role })
      .where("workspace_id", "=", workspaceId)
      .where("user_id", "=", userId)
      .execute();
  },
  async remove(db: Db, workspaceId: string, userId: string) {
    await db.deleteFrom("memberships").where("workspace_id", "=", workspaceId).where("user_id", "=", userId).execute();
  },
  async add(db: Db, workspaceId: string, userId: string, role: RoleColumn) {
    await db
      .insertInto("memberships")
      .values({ workspace_id: workspaceId, user_id: userId, role })
      .onConflict((oc) => oc.columns(["workspace_id", "user_id"]).doNothing())
      .execute();
  },

  listInvites(db: Db, workspaceId: string) {
    return db
      .selectFrom("invites as i")
      .leftJoin("users as u", "u.id", "i.invited_by")
      .select([
        "i.id",
        "i.email",
        "i.role",
        "i.expires_at",
        "i.created_at",
        "u.first_name",
        "u.last_name",
        "u.email as inviter_email",
      ])
      .where("i.workspace_id", "=", workspaceId)
      .where("i.accepted_at", "is", null)
      .where("i.revoked_at", "is", null)
      .where("i.expires_at", ">", sql<Date>`now()`)
      .orderBy("i.created_at", "desc")
      .execute();
  },
  /** A new invitation for an address replaces any pending one (call it inside a transaction). */
  async createInvite(
    tx: Db,
    inv: {
      workspaceId: string;
      email: string;
      role: RoleColumn;
      tokenHash: string;
      invitedBy: string;
      expiresAt: Date;
    },
  ) {
    await tx
      .updateTable("invites")
      .set({ revoked_at: new Date() })
      .where("workspace_id", "=", inv.workspaceId)
      .where(sql`lower(email)`, "=", inv.email.toLowerCase())
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .execute();
    return tx
      .insertInto("invites")
      .values({
        workspace_id: inv.workspaceId,
        email: inv.email,
        role: inv.role,
        token_hash: inv.tokenHash,
        invited_by: inv.invitedBy,
        expires_at: inv.expiresAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
  },
  async revokeInvite(db: Db, workspaceId: string, inviteId: string): Promise<boolean> {
    const r = await db
      .updateTable("invites")
      .set({ revoked_at: new Date() })
      .where("id", "=", inviteId)
      .where("workspace_id", "=", workspaceId)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
  /** A live invitation (not used, revoked or expired, workspace not deleted) with what its page shows. */
  findLiveInvite(db: Db, tokenHash: string) {
    return db
      .selectFrom("invites as i")
      .innerJoin("workspaces as w", "w.id", "i.workspace_id")
      .leftJoin("users as u", "u.id", "i.invited_by")
      .select([
        "i.id",
        "i.workspace_id",
        "w.name as workspace_name",
        "i.email",
        "i.role",
        "i.expires_at",
        "u.first_name",
        "u.last_name",
        "u.email as inviter_email",
      ])
      .where("i.token_hash", "=", tokenHash)
      .where("i.accepted_at", "is", null)
      .where("i.revoked_at", "is", null)
      .where("i.expires_at", ">", sql<Date>`now()`)
      .where("w.deleted_at", "is", null)
      .executeTakeFirst();
  },
  /** Single use: only one caller can mark a given invitation accepted. */
  async markAccepted(db: Db, inviteId: string, userId: string): Promise<boolean> {
    const r = await db
      .updateTable("invites")
      .set({ accepted_at: new Date(), accepted_by: userId })
      .where("id", "=", inviteId)
      .where("accepted_at", "is", null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
};
