import type { ColumnType, Generated } from "kysely";

/** Approvals (migration 20261130-0001): reviews, their stages, reviewers, assets, decisions and history. */
export type ReviewStateValue = "open" | "approved" | "changes_requested" | "rejected" | "canceled";
export type ReviewAssetStatusValue =
  | "in_review"
  | "approved"
  | "approved_with_changes"
  | "changes_requested"
  | "rejected";
export type ReviewDecisionValue = "approved" | "approved_with_changes" | "changes_requested" | "rejected";
/** A bigint sequence number: pg answers it as text, we write numbers. */
type Seq = ColumnType<string, number | string | undefined, number | string>;

export interface ReviewsTable {
  id: string;
  workspace_id: string;
  title: string;
  message: Generated<string>;
  board_id: string | null;
  due_at: Date | null;
  lock_on_approval: Generated<boolean>;
  created_by: string | null;
  state: Generated<ReviewStateValue>;
  active_stage: Generated<number>;
  done_at: Date | null;
  canceled_at: Date | null;
  done_mailed_at: Date | null;
  digest_until: Date | null;
  reminder_sent_at: Date | null;
  overdue_sent_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export interface ReviewStagesTable {
  review_id: string;
  workspace_id: string;
  position: number;
  rule: "all" | "any";
  started_at: Date | null;
}
export interface ReviewReviewersTable {
  id: string;
  review_id: string;
  workspace_id: string;
  stage: number;
  position: Generated<number>;
  user_id: string | null;
  email: string | null;
  name: Generated<string>;
  token: string | null;
  is_active: Generated<boolean>;
  expires_at: Date | null;
  password_hash: string | null;
  password_version: Generated<number>;
  waiting: Generated<number>;
  asked_at: Date | null;
  removed_at: Date | null;
  created_at: Generated<Date>;
}
export interface ReviewAssetsTable {
  review_id: string;
  asset_id: string;
  workspace_id: string;
  position: number;
  reset_seq: Seq;
  status: Generated<ReviewAssetStatusValue>;
  version_id: string | null;
}
export interface ReviewDecisionsTable {
  id: string;
  seq: Seq;
  review_id: string;
  workspace_id: string;
  asset_id: string;
  asset_name: string;
  version_id: string;
  version_number: number;
  reviewer_id: string;
  stage: number;
  decision: ReviewDecisionValue;
  note: string | null;
  comment_id: string | null;
  at_once: Generated<boolean>;
  mailed_at: Date | null;
  created_at: Generated<Date>;
}
export type ReviewEventType =
  | "created"
  | "edited"
  | "stage_started"
  | "reopened"
  | "canceled"
  | "completed"
  | "version";
export interface ReviewEventsTable {
  id: Generated<string>;
  seq: Seq;
  review_id: string;
  workspace_id: string;
  type: ReviewEventType;
  actor_id: string | null;
  actor_name: string | null;
  stage: number | null;
  asset_ids: Generated<string[]>;
  detail: string | null;
  created_at: Generated<Date>;
}
