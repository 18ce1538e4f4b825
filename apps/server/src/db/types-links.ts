import type { Watermark } from "@hangar/contract";
import type { ColumnType, Generated } from "kysely";

type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Share links (migration 20261124-0004). */
export interface ShareLinksTable {
  id: Generated<string>;
  workspace_id: string;
  content_type: "asset" | "board";
  object_id: string;
  board_id: string | null;
  token: string;
  allow_commenting: boolean;
  show_comments: boolean;
  show_custom_fields: boolean;
  allow_editing_custom_fields: boolean;
  allow_downloads: boolean;
  /** Migration 20261129-0002 (issue 29). */
  show_versions: Generated<boolean>;
  is_active: Generated<boolean>;
  expires_at: NullableTimestamp;
  password_hash: string | null;
  password_version: Generated<number>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** Migration 20261207-3303 (issue 33): the watermark settings (contract `Watermark`) and their digest. */
  watermark: ColumnType<Watermark | null, string | null | undefined, string | null>;
  watermark_hash: string | null;
}

export interface ShareLinkActivityTable {
  link_id: string;
  kind: "open" | "view" | "download" | "comment" | "field_edit";
  count: Generated<string>;
  last_at: Generated<Date>;
}
