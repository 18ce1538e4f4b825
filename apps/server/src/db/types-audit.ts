import type { ColumnType, Generated } from "kysely";

/** The audit log (migration 20261206-3603): written by triggers and by `modules/audit`, never updated. */
export interface AuditEventsTable {
  id: ColumnType<string, never, never>;
  workspace_id: string | null;
  user_id: string | null;
  at: Generated<Date>;
  actor_kind: string;
  actor_id: string | null;
  actor_name: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  action: string;
  object_type: string;
  object_id: string | null;
  object_name: string | null;
  related_id: string | null;
  changes: ColumnType<Record<string, unknown> | null, string | null, never>;
}
