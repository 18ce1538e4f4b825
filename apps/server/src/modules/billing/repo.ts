import { sql, type Updateable } from "kysely";
import type { Db } from "../../db/db.ts";
import type { BillingSubscriptionsTable } from "../../db/types.ts";

export type SubscriptionRow = {
  workspace_id: string;
  customer_id: string | null;
  subscription_id: string | null;
  plan_key: string | null;
  billing_interval: "month" | "year" | null;
  status: string;
  current_period_end: Date | null;
  cancel_at_period_end: boolean;
  past_due_since: Date | null;
  limits_until: Date | null;
  state_at: number;
};
export type SubscriptionPatch = Omit<Updateable<BillingSubscriptionsTable>, "workspace_id" | "updated_at">;

const COLUMNS = [
  "workspace_id",
  "customer_id",
  "subscription_id",
  "plan_key",
  "billing_interval",
  "status",
  "current_period_end",
  "cancel_at_period_end",
  "past_due_since",
  "limits_until",
  "state_at",
] as const;

/** All SQL of billing (its three tables, and the usage it reads from assets, members and invites). */
export const billingRepo = {
  get(db: Db, workspaceId: string): Promise<SubscriptionRow | undefined> {
    return db
      .selectFrom("billing_subscriptions")
      .select(COLUMNS)
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirst();
  },
  /**
   * The workspace's row, created if missing, locked until the transaction ends: every limit check
   * and every state change of one workspace queues here, so two uploads cannot both take the last
   * bytes. (ON CONFLICT DO UPDATE locks the existing row in the same statement.)
   */
  lock(tx: Db, workspaceId: string): Promise<SubscriptionRow> {
    return tx
      .insertInto("billing_subscriptions")
      .values({ workspace_id: workspaceId })
      .onConflict((oc) => oc.column("workspace_id").doUpdateSet({ workspace_id: sql`excluded.workspace_id` }))
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
  },
  async update(tx: Db, workspaceId: string, patch: SubscriptionPatch) {
    await tx
      .updateTable("billing_subscriptions")
      .set({ ...patch, updated_at: new Date() })
      .where("workspace_id", "=", workspaceId)
      .execute();
  },
  byCustomer(db: Db, customerId: string) {
    return db
      .selectFrom("billing_subscriptions")
      .select("workspace_id")
      .where("customer_id", "=", customerId)
      .executeTakeFirst();
  },
  bySubscription(db: Db, subscriptionId: string) {
    return db
      .selectFrom("billing_subscriptions")
      .select("workspace_id")
      .where("subscription_id", "=", subscriptionId)
      .executeTakeFirst();
  },
  workspaceName(db: Db, workspaceId: string) {
    return db.selectFrom("workspaces").select("name").where("id", "=", workspaceId).executeTakeFirst();
  },

  /**
   * Bytes of every original the workspace holds: every version of every asset (issue 29), trashed
   * ones included (they occupy storage until purged), uploads under way at their announced size.
   */
  async storageBytes(db: Db, workspaceId: string): Promise<number> {
    const r = await db
      .selectFrom("asset_versions")
      .select(sql<number>`coalesce(sum(size), 0)::float8`.as("bytes"))
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirstOrThrow();
    return Number(r.bytes);
  },
  /** Members and live pending invitations (a pending one for `exceptEmail` is about to be replaced). */
  async seats(db: Db, workspaceId: string, exceptEmail?: string) {
    const r = await db
      .selectNoFrom([
        sql<number>`(SELECT count(*)::int FROM memberships WHERE workspace_id = ${workspaceId})`.as("members"),
        sql<number>`(SELECT count(*)::int FROM invites WHERE workspace_id = ${workspaceId}
          AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
          AND lower(email) <> ${(exceptEmail ?? "").toLowerCase()})`.as("pending"),
      ])
      .executeTakeFirstOrThrow();
    return { members: r.members, pending: r.pending };
  },

  /** Records an event; false when it was recorded before (a replay or a retry of an applied one). */
  async recordEvent(tx: Db, e: { id: string; type: string; created: number; workspaceId: string | null }) {
    const r = await tx
      .insertInto("billing_events")
      .values({ id: e.id, type: e.type, created: e.created, workspace_id: e.workspaceId })
      .onConflict((oc) => oc.column("id").doNothing())
      .returning("id")
      .executeTakeFirst();
    return r !== undefined;
  },

  async addCheckoutSession(
    db: Db,
    s: { id: string; workspaceId: string; userId: string; plan: string; interval: string },
  ) {
    await db
      .insertInto("billing_checkout_sessions")
      .values({
        id: s.id,
        workspace_id: s.workspaceId,
        user_id: s.userId,
        plan_key: s.plan,
        billing_interval: s.interval,
      })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
  },
  checkoutSession(db: Db, id: string) {
    return db
      .selectFrom("billing_checkout_sessions")
      .select(["id", "workspace_id", "user_id", "plan_key", "billing_interval", "completed_at", "created_at"])
      .where("id", "=", id)
      .executeTakeFirst();
  },
  async completeCheckoutSession(tx: Db, id: string) {
    await tx
      .updateTable("billing_checkout_sessions")
      .set({ completed_at: new Date() })
      .where("id", "=", id)
      .where("completed_at", "is", null)
      .execute();
  },
};
