import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { UserRow } from "../../db/types.ts";

/** Sign-ins in flight, workspaces' SSO requirement, and accounts' provider identity. */
export const ssoRepo = {
  async createLogin(
    db: Db,
    l: { id: string; state: string; nonce: string; codeVerifier: string; nextPath: string; expiresAt: Date },
  ) {
    await db
      .insertInto("sso_logins")
      .values({
        id: l.id,
        state: l.state,
        nonce: l.nonce,
        code_verifier: l.codeVerifier,
        next_path: l.nextPath,
        expires_at: l.expiresAt,
      })
      .execute();
  },
  /** Takes the live sign-in once (concurrent callbacks: one wins), or answers why there is none. */
  async takeLogin(db: Db, id: string) {
    const taken = await db
      .updateTable("sso_logins")
      .set({ used_at: sql<Date>`now()` })
      .where("id", "=", id)
      .where("used_at", "is", null)
      .where("expires_at", ">", sql<Date>`now()`)
      .returning(["state", "nonce", "code_verifier", "next_path"])
      .executeTakeFirst();
    if (taken) return { login: taken } as const;
    const row = await db.selectFrom("sso_logins").select(["used_at"]).where("id", "=", id).executeTakeFirst();
    return { missing: !row ? "unknown" : row.used_at ? "used" : "expired" } as const;
  },
  async purgeLogins(db: Db) {
    await db.deleteFrom("sso_logins").where("expires_at", "<", sql<Date>`now() - interval '1 day'`).execute();
  },

  async requiresSso(db: Db, workspaceId: string): Promise<boolean> {
    const row = await db
      .selectFrom("workspaces")
      .select("require_sso")
      .where("id", "=", workspaceId)
      .executeTakeFirst();
    return row?.require_sso ?? false;
  },
  async setRequireSso(db: Db, workspaceId: string, require: boolean) {
    await db
      .updateTable("workspaces")
      .set({ require_sso: require, updated_at: new Date() })
      .where("id", "=", workspaceId)
      .where("deleted_at", "is", null)
      .execute();
  },

  findBySubject(db: Db, subject: string): Promise<UserRow | undefined> {
    return db.selectFrom("users").selectAll().where("sso_subject", "=", subject).executeTakeFirst();
  },
};
