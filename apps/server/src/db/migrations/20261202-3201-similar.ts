import { type Kysely, sql } from "kysely";

/**
 * Perceptual hashes and duplicates (issue 32; docs/architecture.md §6.1).
 *
 * asset_hashes: one row per picture of a version (frame 0: the image, the document's first page, the
 * video's poster; 1..n: the video's key frames), the 64-bit pHash as a bigint and split into four
 * 16-bit bands, each indexed with the workspace (and covering the hash and version, so a probe reads
 * the index alone). Two hashes within d ≤ 11 bits share a band within 2 bits (pigeonhole over 4
 * bands), so hangar_similar probes each band's value and its 136 neighbours within 2 bits and checks
 * each candidate's real distance: every match, never a scan of the workspace's hashes.
 *
 * Rows name the version, not the asset: a version stacked onto another asset keeps its hashes, and
 * only an asset's current version counts (checked through assets.current_version_id). New assets
 * get theirs from the pipeline; existing ones from the hash-assets job (a backfill in batches), so
 * this migration only creates empty tables.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE asset_hashes (
      version_id uuid NOT NULL REFERENCES asset_versions(id) ON DELETE CASCADE,
      frame smallint NOT NULL,
      workspace_id uuid NOT NULL,
      hash bigint NOT NULL,
      b0 integer GENERATED ALWAYS AS (((hash >> 48) & 65535)::integer) STORED,
      b1 integer GENERATED ALWAYS AS (((hash >> 32) & 65535)::integer) STORED,
      b2 integer GENERATED ALWAYS AS (((hash >> 16) & 65535)::integer) STORED,
      b3 integer GENERATED ALWAYS AS ((hash & 65535)::integer) STORED,
      PRIMARY KEY (version_id, frame)
    )`.execute(db);
  for (const b of ["b0", "b1", "b2", "b3"])
    await sql`CREATE INDEX ${sql.raw(`asset_hashes_${b}`)} ON asset_hashes (workspace_id, ${sql.raw(b)}) INCLUDE (hash, version_id)`.execute(
      db,
    );

  // A 16-bit value and every value within 2 bits of it (1 + 16 + 120).
  await sql`
    CREATE FUNCTION hangar_band_probes(v integer) RETURNS integer[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT array_agg(DISTINCT v # (CASE WHEN i < 16 THEN 1 << i ELSE 0 END) # (CASE WHEN j < 16 THEN 1 << j ELSE 0 END))
      FROM generate_series(0, 16) i, generate_series(0, 16) j
    $$`.execute(db);

  // The live assets whose current version has a picture within max_distance of the target's current
  // version (any frame against any frame), with the smallest distance; the target aside.
  await sql`
    CREATE FUNCTION hangar_similar(ws uuid, target uuid, max_distance integer)
    RETURNS TABLE (asset_id uuid, distance integer) LANGUAGE sql STABLE AS $$
      WITH t AS (
        SELECT h.hash, h.b0, h.b1, h.b2, h.b3 FROM assets ta
        JOIN asset_hashes h ON h.version_id = coalesce(ta.current_version_id, ta.id)
        WHERE ta.id = target AND ta.workspace_id = ws
        ORDER BY h.frame LIMIT 32
      ), c AS (
        SELECT h.version_id, bit_count((h.hash # t.hash)::bit(64)) AS d FROM t
          JOIN asset_hashes h ON h.workspace_id = ws AND h.b0 = ANY (hangar_band_probes(t.b0))
        UNION ALL
        SELECT h.version_id, bit_count((h.hash # t.hash)::bit(64)) FROM t
          JOIN asset_hashes h ON h.workspace_id = ws AND h.b1 = ANY (hangar_band_probes(t.b1))
        UNION ALL
        SELECT h.version_id, bit_count((h.hash # t.hash)::bit(64)) FROM t
          JOIN asset_hashes h ON h.workspace_id = ws AND h.b2 = ANY (hangar_band_probes(t.b2))
        UNION ALL
        SELECT h.version_id, bit_count((h.hash # t.hash)::bit(64)) FROM t
          JOIN asset_hashes h ON h.workspace_id = ws AND h.b3 = ANY (hangar_band_probes(t.b3))
      )
      SELECT a.id, min(c.d)::integer FROM c
      JOIN asset_versions v ON v.id = c.version_id
      JOIN assets a ON a.id = v.asset_id AND coalesce(a.current_version_id, a.id) = v.id
      WHERE c.d <= max_distance AND a.workspace_id = ws AND a.id <> target
        AND a.deleted_at IS NULL AND NOT a.is_temp
      GROUP BY a.id
    $$`.execute(db);

  // A dismissed group: its members then. A group is hidden while every member is one of these.
  await sql`
    CREATE TABLE duplicate_dismissals (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      asset_ids uuid[] NOT NULL,
      dismissed_by uuid REFERENCES users(id) ON DELETE SET NULL,
      dismissed_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX duplicate_dismissals_workspace ON duplicate_dismissals (workspace_id)`.execute(db);
  await sql`
    CREATE TABLE duplicate_settings (
      workspace_id uuid PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
      max_distance smallint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS duplicate_settings`.execute(db);
  await sql`DROP TABLE IF EXISTS duplicate_dismissals`.execute(db);
  await sql`DROP FUNCTION IF EXISTS hangar_similar(uuid, uuid, integer)`.execute(db);
  await sql`DROP FUNCTION IF EXISTS hangar_band_probes(integer)`.execute(db);
  await sql`DROP TABLE IF EXISTS asset_hashes`.execute(db);
}
