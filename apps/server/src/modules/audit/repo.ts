import { type Expression, type SqlBool, sql } from "kysely";
import type { Db } from "../../db/db.ts";

/** What a listing filters by (all optional); `before`: the cursor, rows older than it. */
export interface AuditFilter {
  actorKind?: string;
  actorId?: string;
  /** `asset` (every action on assets) or `asset.deleted`. */
  action?: string;
  objectId?: string;
  from?: string;
  to?: string;
}

/** An explicit record (sign-ins, exports, downloads): the acting request's context unless `actor` says otherwise. */
export interface AuditRecord {
  workspaceId: string | null;
  userId?: string | null;
  action: string;
  object: { type: string; id?: string | null; name?: string | null };
  changes?: Record<string, unknown> | null;
  actor?: { kind: string; id: string | null; name: string | null };
}

const CTX = sql`nullif(current_setting('hangar.audit', true), '')::jsonb`;

/** The audit_events table (owned by this module; the triggers of migration 20261206-3603 write it too). */
export const auditRepo = {
  /** One row, with the connection's context (who, where from) as the triggers read it. */
  async insert(db: Db, r: AuditRecord) {
    await sql`
      INSERT INTO audit_events (workspace_id, user_id, actor_kind, actor_id, actor_name, ip, user_agent,
                                request_id, action, object_type, object_id, object_name, changes)
      SELECT ${r.workspaceId}::uuid, ${r.userId ?? null}::uuid,
             coalesce(${r.actor?.kind ?? null}, ctx ->> 'k', 'system'),
             ${r.actor ? r.actor.id : sql`ctx ->> 'id'`}, ${r.actor ? r.actor.name : sql`ctx ->> 'n'`},
             ctx ->> 'ip', left(ctx ->> 'ua', 300), ctx ->> 'rid',
             ${r.action}, ${r.object.type}, ${r.object.id ?? null}, left(${r.object.name ?? null}, 200),
             ${r.changes ? JSON.stringify(r.changes) : null}::jsonb
      FROM (SELECT ${CTX} AS ctx) c`.execute(db);
  },

  /**
   * A workspace's rows newest first, `limit` of them after the cursor. Sign-ins and failed sign-ins
   * (rows of no workspace) count when they name one of the workspace's members.
   */
  list(db: Db, workspaceId: string, f: AuditFilter, before: string | null, limit: number) {
    return db
      .selectFrom("audit_events as e")
      .selectAll("e")
      .where((eb) => {
        const conds: Expression<SqlBool>[] = [
          eb.or([
            eb("e.workspace_id", "=", workspaceId),
            eb.and([
              eb("e.workspace_id", "is", null),
              eb(
                "e.user_id",
                "in",
                eb.selectFrom("memberships").select("user_id").where("workspace_id", "=", workspaceId),
              ),
            ]),
          ]),
        ];
        if (f.actorKind) conds.push(eb("e.actor_kind", "=", f.actorKind));
        if (f.actorId) conds.push(eb("e.actor_id", "=", f.actorId));
        if (f.action)
          conds.push(f.action.includes(".") ? eb("e.action", "=", f.action) : eb("e.object_type", "=", f.action));
        if (f.objectId) conds.push(eb("e.object_id", "=", f.objectId));
        if (f.from) conds.push(eb("e.at", ">=", new Date(f.from)));
        if (f.to) conds.push(eb("e.at", "<", new Date(f.to)));
        if (before) conds.push(eb("e.id", "<", before));
        return eb.and(conds);
      })
      .orderBy("e.id", "desc")
      .limit(limit)
      .execute();
  },

  /** One object's rows (an asset's: its versions', tags', fields' and comments' too; a board's filing). */
  history(db: Db, workspaceId: string, objectId: string, before: string | null, limit: number) {
    let q = db
      .selectFrom("audit_events as e")
      .selectAll("e")
      .where("e.workspace_id", "=", workspaceId)
      .where((eb) =>
        eb.or([
          eb("e.object_id", "=", objectId),
          // A version, a comment or a filing of the asset (the trigger names it as related).
          eb("e.related_id", "=", objectId),
        ]),
      );
    if (before) q = q.where("e.id", "<", before);
    return q.orderBy("e.id", "desc").limit(limit).execute();
  },

  async retention(db: Db, workspaceId: string): Promise<number | undefined> {
    const r = await db
      .selectFrom("workspaces")
      .select("audit_retention_days")
      .where("id", "=", workspaceId)
      .executeTakeFirst();
    return r?.audit_retention_days;
  },

  async setRetention(db: Db, workspaceId: string, days: number) {
    await db.updateTable("workspaces").set({ audit_retention_days: days }).where("id", "=", workspaceId).execute();
  },

  /**
   * Rows older than their workspace's retention, and rows of workspaces that no longer exist (and
   * account rows after the default year), in batches; the only delete the table allows.
   */
  async purge(db: Db, batch = 5000): Promise<number> {
    return db.transaction().execute(async (tx) => {
      await sql`SELECT set_config('hangar.audit_purge', 'on', true)`.execute(tx);
      const r = await sql`
        DELETE FROM audit_events WHERE id IN (
          SELECT e.id FROM audit_events e
          LEFT JOIN workspaces w ON w.id = e.workspace_id
          WHERE (e.workspace_id IS NOT NULL AND w.id IS NULL)
             OR e.at < now() - make_interval(days => coalesce(w.audit_retention_days, 365))
          LIMIT ${batch})`.execute(tx);
      return Number(r.numAffectedRows ?? 0);
    });
  },
};
export type AuditRow = Awaited<ReturnType<typeof auditRepo.list>>[number];

/** Whether an object of a history lies in the workspace (live or in Recently deleted). */
export const historyRepo = {
  async assetIn(db: Db, workspaceId: string, assetId: string) {
    return !!(await db
      .selectFrom("assets")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", assetId)
      .executeTakeFirst());
  },
  async boardIn(db: Db, workspaceId: string, boardId: string) {
    return !!(await db
      .selectFrom("boards")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", boardId)
      .executeTakeFirst());
  },
};
