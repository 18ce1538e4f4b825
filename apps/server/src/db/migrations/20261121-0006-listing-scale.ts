import { type Kysely, sql } from "kysely";

/**
 * The asset listing at a million assets, second step (measured with bench/listing; contract listing.ts
 * documents the counting strategy).
 *
 * - `asset_list_days`: how many listable assets (not deleted, not temporary) each workspace has per UTC
 *   upload day, kept exact by statement-level triggers on assets (transition tables: one grouped
 *   upsert per statement, whatever its row count; rows locked in (workspace, day) order). It answers
 *   the unfiltered listing's total_count exactly without counting rows, and lets a deep page of the
 *   unfiltered listing by upload date skip whole days: the page starts inside one day, so OFFSET walks
 *   at most that day's assets instead of every asset before the page.
 * - `asset_tags (tag_id, asset_id)` replaces `asset_tags (tag_id)`: "the assets with tag X" becomes an
 *   index-only scan (the old index sent every match to the heap for its asset_id).
 * - Expression statistics: the planner ignores the statistics of expressions in partial indexes, so
 *   `lower(camera_make) = 'canon'` was guessed at 0.5% of rows. The estimated counts come from these
 *   estimates, so the expressions the filters use get statistics of their own.
 * - `parallel_workers = 0` on assets: every listing statement is a LIMITed, index-driven query that
 *   answers in milliseconds; the planner's parallel plans for them (Gather Merge over a parallel index
 *   scan) cost more in worker start-up than they save and take cores from concurrent requests.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE asset_list_days (
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      day date NOT NULL,
      n integer NOT NULL,
      PRIMARY KEY (workspace_id, day)
    )`.execute(db);
  await sql`
    CREATE FUNCTION hangar_upload_day(t timestamptz) RETURNS date
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $$ SELECT (t AT TIME ZONE 'UTC')::date $$`.execute(db);

  // One function for the three triggers: the delta of listable assets per (workspace, day) between the
  // statement's old and new rows, applied as one upsert ordered by key (no deadlock between two bulk
  // statements). Unchanged listable sets (most updates) write nothing.
  await sql`
    CREATE FUNCTION hangar_asset_list_days_apply() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO asset_list_days (workspace_id, day, n)
        SELECT workspace_id, hangar_upload_day(date_uploaded), count(*) FROM new_rows
        WHERE deleted_at IS NULL AND NOT is_temp GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (workspace_id, day) DO UPDATE SET n = asset_list_days.n + EXCLUDED.n;
      ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO asset_list_days (workspace_id, day, n)
        SELECT o.workspace_id, hangar_upload_day(o.date_uploaded), -count(*) FROM old_rows o
        WHERE o.deleted_at IS NULL AND NOT o.is_temp
          AND EXISTS (SELECT 1 FROM workspaces w WHERE w.id = o.workspace_id)
        GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (workspace_id, day) DO UPDATE SET n = asset_list_days.n + EXCLUDED.n;
      ELSE
        INSERT INTO asset_list_days (workspace_id, day, n)
        SELECT workspace_id, day, sum(d)::int FROM (
          SELECT workspace_id, hangar_upload_day(date_uploaded) AS day, 1 AS d FROM new_rows
          WHERE deleted_at IS NULL AND NOT is_temp
          UNION ALL
          SELECT workspace_id, hangar_upload_day(date_uploaded), -1 FROM old_rows
          WHERE deleted_at IS NULL AND NOT is_temp
        ) x GROUP BY 1, 2 HAVING sum(d) <> 0 ORDER BY 1, 2
        ON CONFLICT (workspace_id, day) DO UPDATE SET n = asset_list_days.n + EXCLUDED.n;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER assets_list_days_insert AFTER INSERT ON assets
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hangar_asset_list_days_apply()`.execute(db);
  await sql`
    CREATE TRIGGER assets_list_days_update AFTER UPDATE ON assets
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hangar_asset_list_days_apply()`.execute(
    db,
  );
  await sql`
    CREATE TRIGGER assets_list_days_delete AFTER DELETE ON assets
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hangar_asset_list_days_apply()`.execute(db);

  // Recounts one workspace (or all) from the assets: the backfill here, and bulk loads that ran with
  // triggers off (bench/listing).
  await sql`
    CREATE FUNCTION hangar_asset_list_days_rebuild(ws uuid) RETURNS void LANGUAGE sql AS $$
      DELETE FROM asset_list_days WHERE ws IS NULL OR workspace_id = ws;
      INSERT INTO asset_list_days (workspace_id, day, n)
      SELECT workspace_id, hangar_upload_day(date_uploaded), count(*) FROM assets
      WHERE deleted_at IS NULL AND NOT is_temp AND (ws IS NULL OR workspace_id = ws)
      GROUP BY 1, 2;
    $$`.execute(db);
  await sql`SELECT hangar_asset_list_days_rebuild(NULL)`.execute(db);

  await sql`CREATE INDEX asset_tags_tag_asset_idx ON asset_tags (tag_id, asset_id)`.execute(db);
  await sql`DROP INDEX asset_tags_tag_idx`.execute(db);

  await sql`CREATE STATISTICS assets_lower_camera_make_stats ON (lower(camera_make)) FROM assets`.execute(db);
  await sql`CREATE STATISTICS assets_lower_camera_model_stats ON (lower(camera_model)) FROM assets`.execute(db);
  await sql`CREATE STATISTICS assets_lower_extension_stats ON (lower(file_extension)) FROM assets`.execute(db);
  await sql`ALTER TABLE assets SET (parallel_workers = 0)`.execute(db);
  await sql`ANALYZE assets, asset_tags, tags, asset_list_days`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE assets RESET (parallel_workers)`.execute(db);
  for (const s of [
    "assets_lower_camera_make_stats",
    "assets_lower_camera_model_stats",
    "assets_lower_extension_stats",
  ]) {
    await sql`DROP STATISTICS IF EXISTS ${sql.raw(s)}`.execute(db);
  }
  await sql`CREATE INDEX IF NOT EXISTS asset_tags_tag_idx ON asset_tags (tag_id)`.execute(db);
  await sql`DROP INDEX IF EXISTS asset_tags_tag_asset_idx`.execute(db);
  for (const t of ["assets_list_days_insert", "assets_list_days_update", "assets_list_days_delete"]) {
    await sql`DROP TRIGGER IF EXISTS ${sql.raw(t)} ON assets`.execute(db);
  }
  await sql`DROP FUNCTION IF EXISTS hangar_asset_list_days_rebuild(uuid)`.execute(db);
  await sql`DROP FUNCTION IF EXISTS hangar_asset_list_days_apply()`.execute(db);
  await db.schema.dropTable("asset_list_days").ifExists().execute();
  await sql`DROP FUNCTION IF EXISTS hangar_upload_day(timestamptz)`.execute(db);
}
