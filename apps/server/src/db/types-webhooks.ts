import type { ColumnType, Generated } from "kysely";

type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** Webhook endpoints (migration 20261206-3602): the signing secret encrypted (`secret_box`). */
export interface WebhookEndpointsTable {
  id: Generated<string>;
  workspace_id: string;
  url: string;
  description: Generated<string>;
  events: string[];
  secret_box: string;
  enabled: Generated<boolean>;
  disabled_reason: string | null;
  failing_since: NullableTimestamp;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** The outbox: written by triggers in the change's transaction, read by the dispatcher. */
export interface WebhookEventsTable {
  seq: Generated<string>;
  id: Generated<string>;
  workspace_id: string;
  type: string;
  object_type: string;
  object_id: string;
  object_key: string;
  data: Generated<Record<string, unknown>>;
  created_at: Generated<Date>;
  dispatched_at: NullableTimestamp;
}

export type WebhookDeliveryStatusColumn = "pending" | "delivered" | "failed";

/** One event to one endpoint: its fixed body and its last attempt. */
export interface WebhookDeliveriesTable {
  id: Generated<string>;
  seq: Generated<string>;
  endpoint_id: string;
  workspace_id: string;
  event_id: string;
  type: string;
  object_key: string;
  body: string;
  status: Generated<WebhookDeliveryStatusColumn>;
  attempts: Generated<number>;
  next_attempt_at: NullableTimestamp;
  give_up_at: Timestamp;
  claim: string | null;
  claimed_until: NullableTimestamp;
  last_attempt_at: NullableTimestamp;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number | null;
  delivered_at: NullableTimestamp;
  is_test: Generated<boolean>;
  redelivery_of: string | null;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
