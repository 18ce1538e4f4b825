import { type Kysely, sql } from "kysely";

/**
 * Listing at a million assets, the combinations the planner got wrong (issue 19, bench/listing).
 *
 * - Extended statistics (MCV lists and functional dependencies) on the pairs whose values go
 *   together: camera make, ISO and extension exist only for some file types. Without them the planner
 *   multiplied "VIDEO" (20 %) by "Canon" (20 %) and expected 40,000 clips from Canon where there are
 *   none, so it walked the order index through all million assets (2.3 s p95); with them it expects
 *   one row and probes (repo.ts).
 * - `assets_list_type_camera_idx` (type, make, ISO), `assets_list_ext_type_idx` (extension, type; it
 *   replaces the extension index, whose leading columns it keeps) and `assets_list_type_taken_idx` (type, date taken,
 *   covering the other EXIF columns a filter combines with a type): a probe of "this type with that
 *   EXIF value" is an index range (or an index-only scan of one type) instead of every asset of the
 *   make or of the type fetched from the heap.
 * - `ai_tags (confidence)` and `ai_tags (lower(label), confidence)`: `min_confidence` (with or without
 *   labels) was a scan of every AI tag (214 ms at 1M) for each page.
 * Building them takes about 20 s on a million assets.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  const listable = sql.raw("WHERE deleted_at IS NULL AND NOT is_temp");
  await sql`CREATE STATISTICS IF NOT EXISTS assets_type_camera_stats (mcv, dependencies)
            ON file_type, lower(camera_make) FROM assets`.execute(db);
  await sql`CREATE STATISTICS IF NOT EXISTS assets_type_iso_stats (mcv, dependencies) ON file_type, iso FROM assets`.execute(
    db,
  );
  await sql`CREATE STATISTICS IF NOT EXISTS assets_type_ext_stats (mcv, dependencies)
            ON file_type, lower(file_extension) FROM assets`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS assets_list_type_camera_idx
            ON assets (workspace_id, file_type, lower(camera_make), iso) ${listable}`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS assets_list_ext_type_idx
            ON assets (workspace_id, lower(file_extension), file_type) ${listable}`.execute(db);
  await sql`DROP INDEX IF EXISTS assets_list_ext_idx`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS assets_list_type_taken_idx ON assets (workspace_id, file_type, date_taken)
            INCLUDE (date_uploaded, iso, gps_latitude, gps_longitude) ${listable}`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS ai_tags_confidence_idx ON ai_tags (confidence)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS ai_tags_label_confidence_idx ON ai_tags (lower(label), confidence)`.execute(db);
  await sql`ANALYZE assets, ai_tags`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS assets_list_ext_idx ON assets (workspace_id, lower(file_extension))
            WHERE deleted_at IS NULL AND NOT is_temp`.execute(db);
  for (const i of [
    "assets_list_type_camera_idx",
    "assets_list_ext_type_idx",
    "assets_list_type_taken_idx",
    "ai_tags_confidence_idx",
    "ai_tags_label_confidence_idx",
  ])
    await sql`DROP INDEX IF EXISTS ${sql.raw(i)}`.execute(db);
  for (const s of ["assets_type_camera_stats", "assets_type_iso_stats", "assets_type_ext_stats"])
    await sql`DROP STATISTICS IF EXISTS ${sql.raw(s)}`.execute(db);
}
