import type { Generated } from "kysely";

/** The billing feature's tables (migration 20261125-0020): one subscription row per workspace, events applied once, checkout sessions. */
export interface BillingSubscriptionsTable {
  workspace_id: string;
  customer_id: string | null;
  subscription_id: string | null;
  plan_key: string | null;
  billing_interval: "month" | "year" | null;
  status: Generated<string>;
  current_period_end: Date | null;
  cancel_at_period_end: Generated<boolean>;
  past_due_since: Date | null;
  limits_until: Date | null;
  state_at: Generated<number>;
  updated_at: Generated<Date>;
}
export interface BillingEventsTable {
  id: string;
  type: string;
  created: number;
  workspace_id: string | null;
  received_at: Generated<Date>;
}
export interface BillingCheckoutSessionsTable {
  id: string;
  workspace_id: string;
  user_id: string | null;
  plan_key: string;
  billing_interval: string;
  completed_at: Date | null;
  created_at: Generated<Date>;
}
