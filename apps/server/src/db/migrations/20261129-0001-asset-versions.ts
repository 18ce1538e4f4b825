import { type Kysely, sql } from "kysely";

/**
 * Versions (issue 29, docs/architecture.md §10): each upload of an asset's file is a row of `asset_versions`
 * with the file's own facts and media directory (`{workspace}/{version id}`). The asset keeps its
 * identity and a copy of its current version's facts (the assets module keeps it when a version
 * becomes current), so the listing and every reader of `assets` stay as they were.
 *
 * - An asset's first version has the asset's own id, so its directory (`{workspace}/{asset}`) is the
 *   one the asset always had. `assets.current_version_id` NULL means that first version: existing
 *   assets need no update of their million rows, only one INSERT … SELECT of their first versions.
 * - A statement-level trigger gives every asset inserted without a current version its first
 *   version (an upload's, a folder upload's, a bulk load's), so no asset is ever without one.
 * - A current version's AI tags are the asset's `ai_tags` rows; `asset_versions.ai_tags` holds a
 *   version's own while it is not current (null: never taken).
 * - Comments name their version; uploads name the version they bring (null: the asset's first).
 */
const FACTS = [
  "status",
  "error_reason",
  "file_type",
  "mime_type",
  "file_extension",
  "size",
  "sha256",
  "storage_key",
  "directory",
  "width",
  "height",
  "duration",
  "page_count",
  "metadata",
  "placeholder",
  "renditions",
  "exif",
  "camera_make",
  "camera_model",
  "lens",
  "iso",
  "aperture",
  "exposure_time",
  "focal_length",
  "date_taken",
  "gps_latitude",
  "gps_longitude",
  "gps_altitude",
  "palette",
  "simplified_colors",
  "quality_contrast",
  "quality_sharpness",
  "quality_brightness",
  "processing_attempts",
  "processed_at",
].join(", ");

/** The first versions of `source`'s rows (an alias of assets, or the trigger's transition table). */
const firstVersions = (source: string) => `
  INSERT INTO asset_versions (id, asset_id, workspace_id, number, name, ${FACTS}, uploaded_by, created_at)
  SELECT s.id, s.id, s.workspace_id, 1, s.name, ${FACTS.split(", ")
    .map((c) => `s.${c}`)
    .join(", ")}, s.uploaded_by, s.date_uploaded
  FROM ${source} s`;

// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE asset_versions (
      id uuid PRIMARY KEY,
      asset_id uuid NOT NULL,
      workspace_id uuid NOT NULL,
      number integer NOT NULL,
      name text NOT NULL,
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
      placeholder text,
      renditions jsonb NOT NULL DEFAULT '{}'::jsonb,
      exif jsonb,
      camera_make text,
      camera_model text,
      lens text,
      iso integer,
      aperture double precision,
      exposure_time double precision,
      focal_length double precision,
      date_taken timestamptz,
      gps_latitude double precision,
      gps_longitude double precision,
      gps_altitude double precision,
      palette jsonb,
      simplified_colors text[] NOT NULL DEFAULT '{}',
      quality_contrast smallint,
      quality_sharpness smallint,
      quality_brightness smallint,
      processing_attempts integer NOT NULL DEFAULT 0,
      processed_at timestamptz,
      ai_tags jsonb,
      duplicate_of jsonb,
      uploaded_by uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz,
      deleted_by uuid,
      delete_batch uuid,
      made_current_at timestamptz,
      made_current_by uuid
    )`.execute(db);

  // One statement for every existing asset; constraints and indexes after it (one pass each, not a
  // check per inserted row).
  await sql.raw(firstVersions("assets")).execute(db);

  await sql`
    ALTER TABLE asset_versions
      ADD CONSTRAINT asset_versions_asset_fkey FOREIGN KEY (asset_id) REFERENCES assets(id) ON DELETE CASCADE,
      ADD CONSTRAINT asset_versions_uploaded_by_fkey FOREIGN KEY (uploaded_by) REFERENCES users(id) ON DELETE SET NULL,
      ADD CONSTRAINT asset_versions_deleted_by_fkey FOREIGN KEY (deleted_by) REFERENCES users(id) ON DELETE SET NULL,
      ADD CONSTRAINT asset_versions_made_current_by_fkey FOREIGN KEY (made_current_by) REFERENCES users(id) ON DELETE SET NULL`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX asset_versions_number ON asset_versions (asset_id, number)`.execute(db);
  // Duplicates (the same bytes in the workspace), and a workspace's bytes for the plan's storage limit.
  await sql`CREATE INDEX asset_versions_workspace_sha256 ON asset_versions (workspace_id, sha256)`.execute(db);
  await sql`CREATE INDEX asset_versions_deleted ON asset_versions (workspace_id, deleted_at) WHERE deleted_at IS NOT NULL`.execute(
    db,
  );

  await sql`
    ALTER TABLE assets
      ADD COLUMN current_version_id uuid,
      ADD COLUMN current_version_number integer NOT NULL DEFAULT 1,
      ADD COLUMN version_count integer NOT NULL DEFAULT 1,
      ADD COLUMN newer_version_id uuid,
      ADD COLUMN duplicate_of jsonb`.execute(db);

  await sql
    .raw(`
    CREATE FUNCTION hangar_asset_first_versions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${firstVersions("new_assets")} WHERE s.current_version_id IS NULL
      ON CONFLICT (id) DO NOTHING;
      RETURN NULL;
    END $$;

    CREATE TRIGGER assets_first_version AFTER INSERT ON assets
    REFERENCING NEW TABLE AS new_assets FOR EACH STATEMENT EXECUTE FUNCTION hangar_asset_first_versions();

    CREATE FUNCTION hangar_events_asset_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('hangar_events', json_build_object(
        'ws', NEW.workspace_id, 'type', 'asset.version', 'asset_id', NEW.id,
        'current_version_id', coalesce(NEW.current_version_id, NEW.id), 'version_count', NEW.version_count)::text);
      RETURN NULL;
    END $$;

    CREATE TRIGGER assets_version_events
    AFTER UPDATE OF current_version_id, current_version_number, version_count, newer_version_id ON assets
    FOR EACH ROW WHEN (
      OLD.current_version_id IS DISTINCT FROM NEW.current_version_id
      OR OLD.current_version_number IS DISTINCT FROM NEW.current_version_number
      OR OLD.version_count IS DISTINCT FROM NEW.version_count
      OR OLD.newer_version_id IS DISTINCT FROM NEW.newer_version_id)
    EXECUTE FUNCTION hangar_events_asset_version();

    CREATE TRIGGER asset_versions_cache_notify AFTER INSERT OR UPDATE OR DELETE ON asset_versions
    FOR EACH ROW EXECUTE FUNCTION hangar_cache_by_workspace();
    CREATE TRIGGER asset_versions_cache_truncate AFTER TRUNCATE ON asset_versions
    FOR EACH STATEMENT EXECUTE FUNCTION hangar_cache_all();
  `)
    .execute(db);

  // Comments name their version: every existing one was made on its asset's first.
  await sql`ALTER TABLE comments ADD COLUMN version_id uuid`.execute(db);
  await sql`UPDATE comments SET version_id = asset_id`.execute(db);
  await sql`
    ALTER TABLE comments
      ALTER COLUMN version_id SET NOT NULL,
      ADD CONSTRAINT comments_version_fkey FOREIGN KEY (version_id) REFERENCES asset_versions(id) ON DELETE CASCADE`.execute(
    db,
  );
  await sql`CREATE INDEX comments_version ON comments (version_id, created_at, id)`.execute(db);

  await sql`
    ALTER TABLE uploads
      ADD COLUMN version_id uuid REFERENCES asset_versions(id) ON DELETE CASCADE`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE uploads DROP COLUMN IF EXISTS version_id`.execute(db);
  await sql`DROP INDEX IF EXISTS comments_version`.execute(db);
  await sql`ALTER TABLE comments DROP COLUMN IF EXISTS version_id`.execute(db);
  await sql`DROP TRIGGER IF EXISTS assets_version_events ON assets`.execute(db);
  await sql`DROP FUNCTION IF EXISTS hangar_events_asset_version()`.execute(db);
  await sql`DROP TRIGGER IF EXISTS assets_first_version ON assets`.execute(db);
  await sql`DROP FUNCTION IF EXISTS hangar_asset_first_versions()`.execute(db);
  await sql`
    ALTER TABLE assets
      DROP COLUMN IF EXISTS current_version_id,
      DROP COLUMN IF EXISTS current_version_number,
      DROP COLUMN IF EXISTS version_count,
      DROP COLUMN IF EXISTS newer_version_id,
      DROP COLUMN IF EXISTS duplicate_of`.execute(db);
  await sql`DROP TABLE IF EXISTS asset_versions`.execute(db);
}
