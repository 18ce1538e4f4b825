import type { Role } from "@hangar/contract";
import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { EmailTokenPurpose, UserRow } from "../../db/types.ts";

export const authRepo = {
  async createSession(
    db: Db,
    s: { id: string; userId: string; expiresAt: Date; ip: string | null; userAgent: string | null; sso: boolean },
  ) {
    await db
      .insertInto("sessions")
      .values({ id: s.id, user_id: s.userId, expires_at: s.expiresAt, ip: s.ip, user_agent: s.userAgent, sso: s.sso })
      .execute();
  },
  /**
   * One query: the live session and its user, plus, when `workspaceId` is given, the user's role in
   * that (live) workspace — the route guard's membership check rides along instead of a second trip.
   */
  async findSession(
    db: Db,
    id: string,
    workspaceId?: string,
  ): Promise<{ user: UserRow; lastSeen: Date; expiresAt: Date; role: Role | null; sso: boolean } | undefined> {
    const row = await db
      .selectFrom("sessions as s")
      .innerJoin("users as u", "u.id", "s.user_id")
      .selectAll("u")
      .select("s.last_seen_at as session_last_seen")
      .select("s.expires_at as session_expires_at")
      .select("s.sso as session_sso")
      .select((eb) =>
        (workspaceId
          ? eb
              .selectFrom("memberships as m")
              .innerJoin("workspaces as w", "w.id", "m.workspace_id")
              .select("m.role")
              .where("m.workspace_id", "=", workspaceId)
              .whereRef("m.user_id", "=", "s.user_id")
              .where("w.deleted_at", "is", null)
          : sql<Role | null>`NULL`
        ).as("workspace_role"),
      )
      .where("s.id", "=", id)
      .where("s.expires_at", ">", sql<Date>`now()`)
      .executeTakeFirst();
    if (!row) return undefined;
    const { session_last_seen, session_expires_at, session_sso, workspace_role, ...user } = row;
    return {
      user,
      sso: session_sso,
      lastSeen: session_last_seen,
      expiresAt: session_expires_at,
      role: (workspace_role as Role | null) ?? null,
    };
  },
  async touchSession(db: Db, id: string, expiresAt: Date) {
    await db
      .updateTable("sessions")
      .set({ last_seen_at: new Date(), expires_at: expiresAt })
      .where("id", "=", id)
      .execute();
  },
  async deleteSession(db: Db, id: string) {
    await db.deleteFrom("sessions").where("id", "=", id).execute();
  },
  async deleteUserSessions(db: Db, userId: string, exceptId?: string) {
    let q = db.deleteFrom("sessions").where("user_id", "=", userId);
    if (exceptId) q = q.where("id", "!=", exceptId);
    await q.execute();
  },
  async purgeExpiredSessions(db: Db) {
    await db.deleteFrom("sessions").where("expires_at", "<", sql<Date>`now()`).execute();
  },

  async createEmailToken(
    db: Db,
    t: { hash: string; userId: string; purpose: EmailTokenPurpose; email: string; expiresAt: Date },
  ) {
    // One live token per user and purpose: a new mail invalidates the previous link.
    await db
      .updateTable("email_tokens")
      .set({ used_at: new Date() })
      .where("user_id", "=", t.userId)
      .where("purpose", "=", t.purpose)
      .where("used_at", "is", null)
      .execute();
    await db
      .insertInto("email_tokens")
      .values({ token_hash: t.hash, user_id: t.userId, purpose: t.purpose, email: t.email, expires_at: t.expiresAt })
      .execute();
  },
  /** Marks the token used and answers it, only if it is live; single use even under concurrency. */
  consumeEmailToken(db: Db, hash: string, purpose: EmailTokenPurpose) {
    return db
      .updateTable("email_tokens")
      .set({ used_at: new Date() })
      .where("token_hash", "=", hash)
      .where("purpose", "=", purpose)
      .where("used_at", "is", null)
      .where("expires_at", ">", sql<Date>`now()`)
      .returning(["user_id", "email"])
      .executeTakeFirst();
  },
};
