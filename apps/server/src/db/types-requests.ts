import type { Generated } from "kysely";

/** File requests (migration 20261126-0001): upload-only links for a board, and the files sent through them. */
export interface FileRequestsTable {
  id: Generated<string>;
  workspace_id: string;
  board_id: string;
  token: string;
  title: Generated<string>;
  message: Generated<string>;
  is_active: Generated<boolean>;
  expires_at: Date | null;
  password_hash: string | null;
  password_version: Generated<number>;
  max_files: number;
  max_file_bytes: number;
  files_received: Generated<number>;
  bytes_received: Generated<number>;
  last_upload_at: Date | null;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export interface FileRequestUploadsTable {
  asset_id: string;
  request_id: string;
  visit_id: string;
  uploader_name: string | null;
  created_at: Generated<Date>;
}
