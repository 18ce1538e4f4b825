import type { ColumnType, Generated } from "kysely";
import type { NullableTimestamp } from "./types.ts";

/** Comments and annotations (migration 20261124-0001). */
export interface CommentsTable {
  id: string;
  workspace_id: string;
  asset_id: string;
  parent_id: string | null;
  thread_id: string;
  board_id: string | null;
  version_id: string; // the asset version it was made on
  author_id: string | null;
  author_name: string | null;
  author_email: string | null;
  share_link_id: string | null;
  text: string;
  severity: Generated<"high" | "medium" | "low" | "positive" | "none">;
  annotation_type: Generated<"NONE" | "POINT" | "AREA" | "DRAWING">;
  x: number | null;
  y: number | null;
  width: number | null;
  height: number | null;
  page: number | null;
  timestamp_s: number | null;
  duration_s: number | null;
  /** A DRAWING's shapes (migration 20261201-0001), as the contract's `DrawingShape[]`. */
  shapes: ColumnType<unknown, string | null | undefined, string | null>;
  resolved_at: NullableTimestamp;
  resolved_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface CommentMentionsTable {
  comment_id: string;
  user_id: string;
}
