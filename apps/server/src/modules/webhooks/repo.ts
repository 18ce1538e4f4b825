import { sql } from "kysely";
import type { Db } from "../../db/db.ts";

const COLUMNS = [
  "e.id",
  "e.workspace_id",
  "e.url",
  "e.description",
  "e.events",
  "e.enabled",
  "e.disabled_reason",
  "e.failing_since",
  "e.created_at",
  "u.id as creator_id",
  "u.first_name as creator_first_name",
  "u.last_name as creator_last_name",
  "u.email as creator_email",
] as const;

/** The endpoint's latest delivery (one index probe of the log's index). */
const lastDelivery = sql<{ status: string; response_status: number | null; at: Date } | null>`(
  SELECT json_build_object('status', d.status, 'response_status', d.response_status,
    'at', coalesce(d.last_attempt_at, d.created_at))
  FROM webhook_deliveries d WHERE d.endpoint_id = e.id ORDER BY d.seq DESC LIMIT 1)`;

/** The webhook_endpoints table (owned by this module). */
export const endpointsRepo = {
  async insert(
    db: Db,
    row: {
      workspace_id: string;
      url: string;
      description: string;
      events: string[];
      secret_box: string;
      created_by: string;
    },
  ): Promise<string> {
    const { id } = await db.insertInto("webhook_endpoints").values(row).returning("id").executeTakeFirstOrThrow();
    return id;
  },
  get(db: Db, workspaceId: string, id: string) {
    return db
      .selectFrom("webhook_endpoints as e")
      .leftJoin("users as u", "u.id", "e.created_by")
      .select([...COLUMNS, lastDelivery.as("last_delivery")])
      .where("e.workspace_id", "=", workspaceId)
      .where("e.id", "=", id)
      .executeTakeFirst();
  },
  /** Oldest first; a workspace holds at most WEBHOOK_LIMIT endpoints. */
  list(db: Db, workspaceId: string) {
    return db
      .selectFrom("webhook_endpoints as e")
      .leftJoin("users as u", "u.id", "e.created_by")
      .select([...COLUMNS, lastDelivery.as("last_delivery")])
      .where("e.workspace_id", "=", workspaceId)
      .orderBy("e.created_at")
      .orderBy("e.id")
      .limit(1000)
      .execute();
  },
  /** How many endpoints the workspace has, its row locked so two creations count one after the other. */
  async countLocked(db: Db, workspaceId: string): Promise<number> {
    await db.selectFrom("workspaces").select("id").where("id", "=", workspaceId).forUpdate().execute();
    const r = await db
      .selectFrom("webhook_endpoints")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },
  async update(
    db: Db,
    workspaceId: string,
    id: string,
    patch: {
      url?: string;
      description?: string;
      events?: string[];
      enabled?: boolean;
      disabled_reason?: string | null;
      failing_since?: null;
      secret_box?: string;
    },
  ): Promise<boolean> {
    const r = await db
      .updateTable("webhook_endpoints")
      .set({ ...patch, updated_at: sql<Date>`now()` })
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
  async remove(db: Db, workspaceId: string, id: string): Promise<boolean> {
    const r = await db
      .deleteFrom("webhook_endpoints")
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },
  /** What an attempt needs of its endpoint. */
  target(db: Db, id: string) {
    return db
      .selectFrom("webhook_endpoints")
      .select(["id", "workspace_id", "url", "secret_box", "enabled", "failing_since"])
      .where("id", "=", id)
      .executeTakeFirst();
  },
  /** The enabled endpoints of the workspace that want an event of this type. */
  wanting(db: Db, workspaceId: string, type: string) {
    return db
      .selectFrom("webhook_endpoints")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where("enabled", "=", true)
      .where(sql<boolean>`${type} = ANY (events)`)
      .execute();
  },
  /** A failed attempt: failing since then, unless it already was; answers since when. */
  async markFailing(db: Db, id: string, at: Date): Promise<Date | null> {
    const r = await db
      .updateTable("webhook_endpoints")
      .set({ failing_since: sql<Date>`coalesce(failing_since, ${at})` })
      .where("id", "=", id)
      .returning("failing_since")
      .executeTakeFirst();
    return r?.failing_since ?? null;
  },
  /** A delivery succeeded: not failing. Answers whether it was. */
  async markHealthy(db: Db, id: string): Promise<boolean> {
    const r = await db
      .updateTable("webhook_endpoints")
      .set({ failing_since: null })
      .where("id", "=", id)
      .where("failing_since", "is not", null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
  /** Disables an enabled endpoint; true for the one caller that did (it mails the ADMINs). */
  async disable(db: Db, id: string, reason: string): Promise<boolean> {
    const r = await db
      .updateTable("webhook_endpoints")
      .set({ enabled: false, disabled_reason: reason, updated_at: sql<Date>`now()` })
      .where("id", "=", id)
      .where("enabled", "=", true)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
  /** The workspace's ADMINs' addresses and the workspace's name (the disabling mail). */
  async admins(db: Db, workspaceId: string) {
    const rows = await db
      .selectFrom("memberships as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .innerJoin("workspaces as w", "w.id", "m.workspace_id")
      .select(["u.email", "w.name as workspace_name"])
      .where("m.workspace_id", "=", workspaceId)
      .where("m.role", "=", "ADMIN")
      .orderBy("m.created_at")
      .limit(100)
      .execute();
    return rows;
  },
  /**
   * The member whose view the objects of events are serialized with: the workspace's first ADMIN
   * (the signed URL of an original in an asset names them). None when the workspace is gone.
   */
  actingUser(db: Db, workspaceId: string) {
    return db
      .selectFrom("memberships as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .innerJoin("workspaces as w", "w.id", "m.workspace_id")
      .selectAll("u")
      .where("m.workspace_id", "=", workspaceId)
      .where("m.role", "=", "ADMIN")
      .where("w.deleted_at", "is", null)
      .orderBy("m.created_at")
      .orderBy("m.user_id")
      .limit(1)
      .executeTakeFirst();
  },
};
