import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { WebhookDeliveryStatusColumn } from "../../db/types-webhooks.ts";

/** How long a claimed attempt may take before another worker may try it (a worker killed mid-attempt). */
const CLAIM_SECONDS = 60;

export interface AttemptResult {
  status: WebhookDeliveryStatusColumn;
  at: Date;
  next_attempt_at: Date | null;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
}

export interface NewDelivery {
  endpoint_id: string;
  workspace_id: string;
  event_id: string;
  type: string;
  object_key: string;
  body: string;
  next_attempt_at: Date | null;
  give_up_at: Date;
  created_at: Date;
  is_test?: boolean;
  redelivery_of?: string | null;
}

/** The outbox (webhook_events) and the deliveries (webhook_deliveries), owned by this module. */
export const deliveriesRepo = {
  /**
   * Takes the dispatcher's lock for the transaction: events are turned into deliveries by one worker
   * at a time, in `seq` order, so deliveries of one object are numbered in the order of its events.
   */
  async lockDispatch(tx: Db): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtext('hangar_webhook_dispatch'))`.execute(tx);
  },
  pendingEvents(tx: Db, limit: number) {
    return tx
      .selectFrom("webhook_events")
      .selectAll()
      .where("dispatched_at", "is", null)
      .orderBy("seq")
      .limit(limit)
      .execute();
  },
  async markDispatched(tx: Db, seqs: string[]): Promise<void> {
    if (seqs.length === 0) return;
    await tx.updateTable("webhook_events").set({ dispatched_at: sql<Date>`now()` }).where("seq", "in", seqs).execute();
  },
  async insert(db: Db, rows: NewDelivery[]) {
    if (rows.length === 0) return [];
    return db.insertInto("webhook_deliveries").values(rows).returning(["id", "endpoint_id", "object_key"]).execute();
  },
  /**
   * Claims the oldest pending delivery of one endpoint about one object, if it is due at `at`, not
   * claimed by a live attempt, and its endpoint is enabled: counts the attempt and answers it with
   * the endpoint's target. Two workers asking at once: one gets it (the row's update is re-checked).
   */
  async claimHead(db: Db, endpointId: string, objectKey: string, at: Date, claim: string) {
    const r = await sql<{
      id: string;
      event_id: string;
      type: string;
      body: string;
      attempts: number;
      give_up_at: Date;
      url: string;
      secret_box: string;
    }>`
      UPDATE webhook_deliveries d
      SET claim = ${claim}, claimed_until = now() + make_interval(secs => ${CLAIM_SECONDS}), attempts = d.attempts + 1
      FROM webhook_endpoints e
      WHERE d.id = (
          SELECT h.id FROM webhook_deliveries h
          WHERE h.endpoint_id = ${endpointId} AND h.object_key = ${objectKey} AND h.status = 'pending'
          ORDER BY h.seq LIMIT 1)
        AND d.status = 'pending' AND e.id = d.endpoint_id AND e.enabled
        AND d.next_attempt_at <= ${at} AND (d.claimed_until IS NULL OR d.claimed_until < now())
      RETURNING d.id, d.event_id, d.type, d.body, d.attempts, d.give_up_at, e.url, e.secret_box`.execute(db);
    return r.rows[0];
  },
  /** Writes an attempt's result, if the claim is still ours. */
  async record(db: Db, id: string, claim: string, r: AttemptResult): Promise<void> {
    await db
      .updateTable("webhook_deliveries")
      .set({
        status: r.status,
        last_attempt_at: r.at,
        next_attempt_at: r.next_attempt_at,
        response_status: r.response_status,
        response_body: r.response_body,
        error: r.error,
        duration_ms: r.duration_ms,
        delivered_at: r.status === "delivered" ? r.at : null,
        claim: null,
        claimed_until: null,
      })
      .where("id", "=", id)
      .where("claim", "=", claim)
      .execute();
  },
  /** A one-attempt delivery (a test event, a redelivery) with its result, as it is inserted. */
  async insertAttempted(db: Db, row: NewDelivery & AttemptResult & { attempts: number }) {
    const { at, ...rest } = row;
    return db
      .insertInto("webhook_deliveries")
      .values({ ...rest, last_attempt_at: at, delivered_at: row.status === "delivered" ? at : null })
      .returning("id")
      .executeTakeFirstOrThrow();
  },
  /** Chains whose oldest pending delivery is due at `at` (enabled endpoints only), oldest first. */
  async dueChains(db: Db, at: Date, limit: number) {
    const r = await sql<{ endpoint_id: string; object_key: string }>`
      SELECT h.endpoint_id, h.object_key FROM (
        SELECT DISTINCT ON (d.endpoint_id, d.object_key) d.endpoint_id, d.object_key, d.next_attempt_at,
          d.claimed_until, d.seq
        FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled
        WHERE d.status = 'pending'
        ORDER BY d.endpoint_id, d.object_key, d.seq) h
      WHERE h.next_attempt_at <= ${at} AND (h.claimed_until IS NULL OR h.claimed_until < now())
      ORDER BY h.seq LIMIT ${limit}`.execute(db);
    return r.rows;
  },
  /** The endpoint's pending deliveries, given up (it was disabled). */
  async failPending(db: Db, endpointId: string, reason: string): Promise<number> {
    const r = await db
      .updateTable("webhook_deliveries")
      .set({ status: "failed", error: reason, next_attempt_at: null, claim: null, claimed_until: null })
      .where("endpoint_id", "=", endpointId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  },
  /** The endpoint answers again: its waiting deliveries are due now. Answers their chains. */
  async dueNow(db: Db, endpointId: string, at: Date) {
    return db
      .updateTable("webhook_deliveries")
      .set({ next_attempt_at: at })
      .where("endpoint_id", "=", endpointId)
      .where("status", "=", "pending")
      .where("next_attempt_at", ">", at)
      .returning(["endpoint_id", "object_key"])
      .execute();
  },
  /** The log, newest first, `before` a delivery's seq. */
  list(db: Db, endpointId: string, before: string | undefined, limit: number) {
    let q = db
      .selectFrom("webhook_deliveries")
      .select([
        "id",
        "seq",
        "event_id",
        "type",
        "status",
        "attempts",
        "response_status",
        "response_body",
        "error",
        "duration_ms",
        "created_at",
        "last_attempt_at",
        "next_attempt_at",
        "delivered_at",
        "is_test",
        "redelivery_of",
      ])
      .where("endpoint_id", "=", endpointId)
      .orderBy("seq", "desc")
      .limit(limit);
    if (before) q = q.where("seq", "<", before);
    return q.execute();
  },
  get(db: Db, endpointId: string, id: string) {
    return db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("endpoint_id", "=", endpointId)
      .where("id", "=", id)
      .executeTakeFirst();
  },
  /** Forgets what is older than the cutoff: dispatched events and finished deliveries. */
  async purge(db: Db, cutoff: Date): Promise<number> {
    await db.deleteFrom("webhook_events").where("dispatched_at", "<", cutoff).execute();
    const r = await db
      .deleteFrom("webhook_deliveries")
      .where("created_at", "<", cutoff)
      .where("status", "<>", "pending")
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  },
};
