import { type Kysely, sql } from "kysely";

/**
 * Billing (issue 18, docs/architecture.md §9). One row per workspace that ever touched billing: the provider's
 * customer and subscription, our copy of its state, and `state_at` (the provider's event time of the
 * state we hold) so an older event never overwrites a newer state. The row is also the lock that
 * makes limit checks race-safe: uploads and invitations lock it in their own transaction.
 * Events are recorded by id in the transaction that applies them, so each is applied once.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE billing_subscriptions (
      workspace_id uuid PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
      customer_id text UNIQUE,
      subscription_id text UNIQUE,
      plan_key text,
      billing_interval text CHECK (billing_interval IN ('month', 'year')),
      status text NOT NULL DEFAULT 'none',
      current_period_end timestamptz,
      cancel_at_period_end boolean NOT NULL DEFAULT false,
      past_due_since timestamptz,
      limits_until timestamptz,
      state_at bigint NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE billing_events (
      id text PRIMARY KEY,
      type text NOT NULL,
      created bigint NOT NULL,
      workspace_id uuid REFERENCES workspaces(id) ON DELETE SET NULL,
      received_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE billing_checkout_sessions (
      id text PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      plan_key text NOT NULL,
      billing_interval text NOT NULL,
      completed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX billing_checkout_sessions_workspace ON billing_checkout_sessions (workspace_id)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS billing_checkout_sessions`.execute(db);
  await sql`DROP TABLE IF EXISTS billing_events`.execute(db);
  await sql`DROP TABLE IF EXISTS billing_subscriptions`.execute(db);
}
