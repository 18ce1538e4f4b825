import { type Kysely, sql } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE boards (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      parent_id uuid REFERENCES boards(id) ON DELETE CASCADE,
      name text NOT NULL,
      position integer NOT NULL,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz,
      deleted_by uuid REFERENCES users(id) ON DELETE SET NULL,
      -- Everything one delete took away shares this id, so it comes back together.
      delete_batch uuid
    )`.execute(db);
  // Sibling order is unique among live boards; NULLS NOT DISTINCT makes the roots one sibling group.
  await sql`CREATE UNIQUE INDEX boards_sibling_position_key ON boards (workspace_id, parent_id, position) NULLS NOT DISTINCT WHERE deleted_at IS NULL`.execute(
    db,
  );
  await sql`CREATE INDEX boards_parent_idx ON boards (parent_id) WHERE deleted_at IS NULL`.execute(db);
  await sql`CREATE INDEX boards_deleted_idx ON boards (workspace_id, deleted_at) WHERE deleted_at IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX boards_batch_idx ON boards (delete_batch) WHERE delete_batch IS NOT NULL`.execute(db);

  await sql`
    CREATE TABLE assets (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text,
      status text NOT NULL DEFAULT 'uploading' CHECK (status IN ('uploading', 'processing', 'COMPLETED', 'error')),
      error_reason text,
      file_type text NOT NULL DEFAULT 'OTHER' CHECK (file_type IN ('IMAGE', 'VIDEO', 'DOCUMENT', 'AUDIO', 'ARCHIVE', 'OTHER')),
      mime_type text NOT NULL DEFAULT 'application/octet-stream',
      file_extension text NOT NULL DEFAULT '',
      size bigint NOT NULL DEFAULT 0,
      sha256 text,
      storage_key text,
      directory text,
      width integer,
      height integer,
      duration double precision,
      page_count integer,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      is_temp boolean NOT NULL DEFAULT true,
      upload_board_id uuid REFERENCES boards(id) ON DELETE SET NULL,
      uploaded_by uuid REFERENCES users(id) ON DELETE SET NULL,
      date_uploaded timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz,
      deleted_by uuid REFERENCES users(id) ON DELETE SET NULL,
      delete_batch uuid
    )`.execute(db);
  await sql`CREATE INDEX assets_ws_uploaded_idx ON assets (workspace_id, date_uploaded DESC, id) WHERE deleted_at IS NULL`.execute(
    db,
  );
  await sql`CREATE INDEX assets_deleted_idx ON assets (workspace_id, deleted_at) WHERE deleted_at IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX assets_batch_idx ON assets (delete_batch) WHERE delete_batch IS NOT NULL`.execute(db);

  await sql`
    CREATE TABLE board_assets (
      board_id uuid NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
      asset_id uuid NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
      added_by uuid REFERENCES users(id) ON DELETE SET NULL,
      added_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (board_id, asset_id)
    )`.execute(db);
  await sql`CREATE INDEX board_assets_asset_idx ON board_assets (asset_id)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["board_assets", "assets", "boards"]) await db.schema.dropTable(t).ifExists().execute();
}
