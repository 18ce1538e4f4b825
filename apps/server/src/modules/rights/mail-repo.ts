import { sql } from "kysely";
import type { Db } from "../../db/db.ts";

export interface ClaimedNotice {
  asset_id: string;
  asset_name: string;
  workspace_id: string;
  workspace_name: string;
  expire_at: Date;
  kind: "expiring" | "expired";
}

export const rightsMailRepo = {
  /**
   * Claims, in one statement, every notice now due: a live asset whose rights expire within
   * `days` of `at` (expiring) or expired by `at` (expired), for which that notice of that expiry
   * date was never claimed. A claimed notice is never claimed again (the primary key), so two
   * sweeps at once send each mail once; a new expiry date is a new notice.
   */
  async claim(db: Db, at: Date, days: number): Promise<ClaimedNotice[]> {
    const until = new Date(at.getTime() + days * 86_400_000);
    const r = await sql<ClaimedNotice>`
      WITH due AS (
        SELECT r.id AS asset_id, r.expire_at, CASE WHEN r.expire_at <= ${at} THEN 'expired' ELSE 'expiring' END AS kind
        FROM asset_rights r
        JOIN assets a ON a.id = r.id AND a.deleted_at IS NULL AND NOT a.is_temp
        JOIN workspaces w ON w.id = r.workspace_id AND w.deleted_at IS NULL
        WHERE r.expire_at IS NOT NULL AND r.expire_at <= ${until}
      ), claimed AS (
        INSERT INTO rights_notices (asset_id, expire_at, kind)
        SELECT asset_id, expire_at, kind FROM due
        ON CONFLICT DO NOTHING
        RETURNING asset_id, expire_at, kind
      )
      SELECT c.asset_id, a.name AS asset_name, a.workspace_id, w.name AS workspace_name, c.expire_at, c.kind
      FROM claimed c JOIN assets a ON a.id = c.asset_id JOIN workspaces w ON w.id = a.workspace_id
      ORDER BY a.workspace_id, c.expire_at, a.name`.execute(db);
    return r.rows;
  },
  async admins(db: Db, workspaceId: string): Promise<Array<{ email: string }>> {
    return db
      .selectFrom("memberships as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .select("u.email")
      .where("m.workspace_id", "=", workspaceId)
      .where("m.role", "=", "ADMIN")
      .orderBy("m.created_at")
      .limit(100)
      .execute();
  },
};
