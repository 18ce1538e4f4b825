import { randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  // Secrets every process must share (URL signing); generated once, in the database.
  await sql`
    CREATE TABLE app_secrets (
      name text PRIMARY KEY,
      value text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`INSERT INTO app_secrets (name, value) VALUES ('url_signing', ${randomBytes(32).toString("hex")})`.execute(
    db,
  );

  await sql`
    CREATE TABLE uploads (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      asset_id uuid NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
      key text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('direct', 'multipart')),
      size bigint NOT NULL,
      part_size bigint NOT NULL,
      part_count integer NOT NULL,
      content_type text NOT NULL,
      s3_upload_id text,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX uploads_pending_idx ON uploads (created_at) WHERE completed_at IS NULL`.execute(db);
  await sql`CREATE INDEX uploads_asset_idx ON uploads (asset_id)`.execute(db);

  await sql`
    CREATE TABLE upload_parts (
      upload_id uuid NOT NULL REFERENCES uploads(id) ON DELETE CASCADE,
      part_number integer NOT NULL,
      size bigint NOT NULL,
      etag text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (upload_id, part_number)
    )`.execute(db);

  await sql`
    ALTER TABLE assets
      ADD COLUMN placeholder text,
      ADD COLUMN renditions jsonb NOT NULL DEFAULT '{}'::jsonb,
      ADD COLUMN exif jsonb,
      ADD COLUMN camera_make text,
      ADD COLUMN camera_model text,
      ADD COLUMN lens text,
      ADD COLUMN iso integer,
      ADD COLUMN aperture double precision,
      ADD COLUMN exposure_time double precision,
      ADD COLUMN focal_length double precision,
      ADD COLUMN date_taken timestamptz,
      ADD COLUMN gps_latitude double precision,
      ADD COLUMN gps_longitude double precision,
      ADD COLUMN gps_altitude double precision,
      ADD COLUMN palette jsonb,
      ADD COLUMN simplified_colors text[] NOT NULL DEFAULT '{}',
      ADD COLUMN quality_contrast smallint,
      ADD COLUMN quality_sharpness smallint,
      ADD COLUMN quality_brightness smallint,
      ADD COLUMN processing_attempts integer NOT NULL DEFAULT 0,
      ADD COLUMN processed_at timestamptz`.execute(db);

  await sql`
    CREATE TABLE tags (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX tags_ws_name_key ON tags (workspace_id, lower(name))`.execute(db);
  await sql`
    CREATE TABLE asset_tags (
      asset_id uuid NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
      tag_id uuid NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
      PRIMARY KEY (asset_id, tag_id)
    )`.execute(db);
  await sql`CREATE INDEX asset_tags_tag_idx ON asset_tags (tag_id)`.execute(db);

  await sql`
    CREATE TABLE ai_tags (
      asset_id uuid NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      label text NOT NULL,
      confidence real NOT NULL,
      type text NOT NULL DEFAULT 'object',
      PRIMARY KEY (asset_id, label)
    )`.execute(db);
  await sql`CREATE INDEX ai_tags_ws_label_idx ON ai_tags (workspace_id, label)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["ai_tags", "asset_tags", "tags", "upload_parts", "uploads", "app_secrets"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
