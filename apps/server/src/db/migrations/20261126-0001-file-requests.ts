import { type Kysely, sql } from "kysely";

/**
 * "Request files" (issue 17): upload-only links for a board. A request keeps its caps and counters
 * (files and bytes reserved as uploads begin, so concurrent visitors cannot pass the cap); each file
 * sent through it is remembered with the visit that sent it, which is all a visitor can list.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE file_requests (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      board_id uuid NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
      token text NOT NULL UNIQUE,
      title text NOT NULL DEFAULT '',
      message text NOT NULL DEFAULT '',
      is_active boolean NOT NULL DEFAULT true,
      expires_at timestamptz,
      password_hash text,
      password_version integer NOT NULL DEFAULT 0,
      max_files integer NOT NULL CHECK (max_files > 0),
      max_file_bytes bigint NOT NULL CHECK (max_file_bytes > 0),
      files_received integer NOT NULL DEFAULT 0,
      bytes_received bigint NOT NULL DEFAULT 0,
      last_upload_at timestamptz,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX file_requests_board ON file_requests (board_id)`.execute(db);
  await sql`
    CREATE TABLE file_request_uploads (
      asset_id uuid PRIMARY KEY REFERENCES assets(id) ON DELETE CASCADE,
      request_id uuid NOT NULL REFERENCES file_requests(id) ON DELETE CASCADE,
      visit_id uuid NOT NULL,
      uploader_name text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX file_request_uploads_visit ON file_request_uploads (request_id, visit_id)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS file_request_uploads`.execute(db);
  await sql`DROP TABLE IF EXISTS file_requests`.execute(db);
}
