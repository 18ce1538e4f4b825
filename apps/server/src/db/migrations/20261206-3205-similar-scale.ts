import { type Kysely, sql } from "kysely";

/**
 * Duplicates at a million assets (issue 32; docs/architecture.md §6.1). The duplicates page grouped the
 * workspace's assets by checksum on every request (a scan of every asset) and built every group before
 * paging. Here the groups are rows, paged by an index in the page's own order:
 *
 * - exact groups are kept by a statement trigger on assets: the (workspace, checksum) keys whose live
 *   members a statement changed are recounted from the assets (a hash index on the checksum of live
 *   assets), under advisory locks on the keys' buckets (64 a workspace) taken in order, so two uploads
 *   of the same bytes in parallel each recount after the other commits (a recount sees every
 *   committed member);
 * - near groups (connected components of asset_hash_pairs within the workspace's distance) are rebuilt
 *   by the duplicates request when something they depend on changed since the last build: pairs saved
 *   or removed, a paired asset deleted, restored, given another current version or size, the distance
 *   setting. Those changes leave a row in duplicate_near_changes (one per workspace and transaction:
 *   inserts never wait on another transaction); the rebuild deletes the rows it saw in the same
 *   transaction, so a change committed meanwhile stays for the next request.
 *
 * What is hidden (dismissed groups, a near group of byte-identical assets only) is decided when read.
 *
 * Similar pictures at a million (bench/listing's similar_to cases): hangar_similar found ~1,000 matches
 * as ~4,000 band hits (a near copy shares all four bands) and joined each hit to its version and asset
 * before grouping: now the hits are grouped by version first, so each match is joined once. And
 * asset_hashes is vacuumed after 2 % new rows rather than 20 %: its band indexes cover the hash, and an
 * index-only scan of a page not yet marked all-visible reads the heap for every candidate (2,959 heap
 * fetches for 948 matches of one band on the bench's freshly written million).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE duplicate_groups (
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('exact', 'near')),
      sha256 text,
      asset_ids uuid[] NOT NULL,
      first_id uuid NOT NULL,
      count integer NOT NULL,
      size bigint NOT NULL,
      reclaimable bigint NOT NULL,
      distance smallint NOT NULL,
      -- Near groups whose members all have the same bytes: that checksum (the group is the exact one's
      -- twin, and not listed, while the exact group has as many members).
      twin_sha256 text,
      CHECK ((kind = 'exact') = (sha256 IS NOT NULL)),
      CHECK (kind = 'near' OR twin_sha256 IS NULL)
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX duplicate_groups_exact ON duplicate_groups (workspace_id, sha256) WHERE kind = 'exact'`.execute(
    db,
  );
  // The page's order (contract similar.ts): largest first, then the space, exact first, the first id.
  await sql`CREATE INDEX duplicate_groups_order ON duplicate_groups (workspace_id, count DESC, size DESC, kind, first_id)`.execute(
    db,
  );
  await sql`CREATE INDEX duplicate_dismissals_members ON duplicate_dismissals USING gin (asset_ids)`.execute(db);
  // Equality only, and a quarter of a B-tree's size on 64-character checksums.
  await sql`CREATE INDEX assets_live_sha256 ON assets USING hash (sha256) WHERE deleted_at IS NULL AND NOT is_temp`.execute(
    db,
  );

  await sql`
    CREATE FUNCTION hangar_duplicate_exact_apply() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      ws uuid[];
      shas text[];
      k record;
    BEGIN
      -- The keys whose live members changed: a live asset with a checksum came, went, or changed its
      -- checksum, size or liveness. Most statements (renames, processing facts) have none.
      IF TG_OP = 'INSERT' THEN
        SELECT array_agg(w ORDER BY w, s), array_agg(s ORDER BY w, s) INTO ws, shas FROM (
          SELECT DISTINCT workspace_id AS w, sha256 AS s FROM new_rows
          WHERE sha256 IS NOT NULL AND deleted_at IS NULL AND NOT is_temp) x;
      ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(w ORDER BY w, s), array_agg(s ORDER BY w, s) INTO ws, shas FROM (
          SELECT DISTINCT o.workspace_id AS w, o.sha256 AS s FROM old_rows o
          WHERE o.sha256 IS NOT NULL AND o.deleted_at IS NULL AND NOT o.is_temp
            AND EXISTS (SELECT 1 FROM workspaces w WHERE w.id = o.workspace_id)) x;
      ELSE
        -- Most updates (search text, processing facts, thousands at a time) touch none of these: a
        -- hashed set difference says so without joining the two transition tables row by row.
        IF NOT EXISTS (
          SELECT id, workspace_id, sha256, size, deleted_at IS NULL AND NOT is_temp FROM old_rows
          EXCEPT
          SELECT id, workspace_id, sha256, size, deleted_at IS NULL AND NOT is_temp FROM new_rows) THEN
          RETURN NULL;
        END IF;
        SELECT array_agg(w ORDER BY w, s), array_agg(s ORDER BY w, s) INTO ws, shas FROM (
          SELECT DISTINCT y.w, y.s FROM old_rows o JOIN new_rows n ON n.id = o.id
          CROSS JOIN LATERAL (VALUES (o.workspace_id, o.sha256, o.deleted_at IS NULL AND NOT o.is_temp),
                                     (n.workspace_id, n.sha256, n.deleted_at IS NULL AND NOT n.is_temp)) y(w, s, live)
          WHERE y.s IS NOT NULL AND y.live
            AND (o.sha256, o.size, o.workspace_id, o.deleted_at IS NULL AND NOT o.is_temp)
                IS DISTINCT FROM (n.sha256, n.size, n.workspace_id, n.deleted_at IS NULL AND NOT n.is_temp)) x;
      END IF;
      IF ws IS NULL THEN RETURN NULL; END IF;
      -- One lock per (workspace, checksum bucket), at most 64 a workspace however many keys a bulk
      -- statement touches (advisory locks share the server's lock table), taken in order.
      FOR k IN SELECT DISTINCT u.w, hashtext(u.s) & 63 AS b FROM unnest(ws, shas) AS u(w, s) ORDER BY 1, 2 LOOP
        PERFORM pg_advisory_xact_lock(hashtextextended('duplicates:' || k.w || ':' || k.b, 0));
      END LOOP;
      -- After the locks: this statement's snapshot holds every member committed before them.
      DELETE FROM duplicate_groups g USING unnest(ws, shas) AS u(w, s)
      WHERE g.kind = 'exact' AND g.workspace_id = u.w AND g.sha256 = u.s;
      INSERT INTO duplicate_groups (workspace_id, kind, sha256, asset_ids, first_id, count, size, reclaimable, distance)
      SELECT u.w, 'exact', u.s, array_agg(a.id ORDER BY a.id), (array_agg(a.id ORDER BY a.id))[1], count(*),
        coalesce(sum(a.size), 0), coalesce(sum(a.size) - max(a.size), 0), 0
      FROM unnest(ws, shas) AS u(w, s)
      JOIN assets a ON a.sha256 = u.s AND a.workspace_id = u.w AND a.deleted_at IS NULL AND NOT a.is_temp
      GROUP BY u.w, u.s HAVING count(*) > 1;
      RETURN NULL;
    END $$`.execute(db);
  for (const [op, refs] of [
    ["INSERT", "NEW TABLE AS new_rows"],
    ["UPDATE", "OLD TABLE AS old_rows NEW TABLE AS new_rows"],
    ["DELETE", "OLD TABLE AS old_rows"],
  ] as const)
    await sql
      .raw(`CREATE TRIGGER assets_duplicates_${op.toLowerCase()} AFTER ${op} ON assets REFERENCING ${refs}
        FOR EACH STATEMENT EXECUTE FUNCTION hangar_duplicate_exact_apply()`)
      .execute(db);

  // Near groups: a row per workspace and transaction that changed what they are built from.
  await sql`
    CREATE TABLE duplicate_near_changes (
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      xid xid8 NOT NULL,
      PRIMARY KEY (workspace_id, xid)
    )`.execute(db);
  await sql`
    CREATE FUNCTION hangar_duplicate_near_touch(ws uuid[]) RETURNS void LANGUAGE sql AS $$
      INSERT INTO duplicate_near_changes (workspace_id, xid)
      SELECT DISTINCT w.id, pg_current_xact_id() FROM workspaces w WHERE w.id = ANY (ws)
      ON CONFLICT DO NOTHING
    $$`.execute(db);
  // Pairs saved or removed (a version hashed again, purged).
  await sql`
    CREATE FUNCTION hangar_duplicate_pairs_touch() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM hangar_duplicate_near_touch(ARRAY(SELECT DISTINCT workspace_id FROM new_rows));
      ELSE
        PERFORM hangar_duplicate_near_touch(ARRAY(SELECT DISTINCT workspace_id FROM old_rows));
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER asset_hash_pairs_duplicates_insert AFTER INSERT ON asset_hash_pairs
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hangar_duplicate_pairs_touch()`.execute(db);
  await sql`CREATE TRIGGER asset_hash_pairs_duplicates_delete AFTER DELETE ON asset_hash_pairs
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION hangar_duplicate_pairs_touch()`.execute(db);
  // A paired asset whose liveness, current version or size changed (or a new asset on a paired version).
  await sql`
    CREATE FUNCTION hangar_duplicate_assets_touch() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        PERFORM hangar_duplicate_near_touch(ARRAY(
          SELECT DISTINCT n.workspace_id FROM new_rows n
          WHERE EXISTS (SELECT 1 FROM asset_hash_pairs p WHERE p.version_a = coalesce(n.current_version_id, n.id))
             OR EXISTS (SELECT 1 FROM asset_hash_pairs p WHERE p.version_b = coalesce(n.current_version_id, n.id))));
      ELSE
        IF NOT EXISTS (
          SELECT id, deleted_at IS NULL AND NOT is_temp, current_version_id, size FROM old_rows
          EXCEPT
          SELECT id, deleted_at IS NULL AND NOT is_temp, current_version_id, size FROM new_rows) THEN
          RETURN NULL;
        END IF;
        PERFORM hangar_duplicate_near_touch(ARRAY(
          SELECT DISTINCT n.workspace_id FROM old_rows o JOIN new_rows n ON n.id = o.id
          CROSS JOIN LATERAL (VALUES (coalesce(o.current_version_id, o.id)), (coalesce(n.current_version_id, n.id))) v(id)
          WHERE (o.deleted_at IS NULL AND NOT o.is_temp, o.current_version_id, o.size)
                IS DISTINCT FROM (n.deleted_at IS NULL AND NOT n.is_temp, n.current_version_id, n.size)
            AND (EXISTS (SELECT 1 FROM asset_hash_pairs p WHERE p.version_a = v.id)
              OR EXISTS (SELECT 1 FROM asset_hash_pairs p WHERE p.version_b = v.id))));
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER assets_duplicates_near_insert AFTER INSERT ON assets
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hangar_duplicate_assets_touch()`.execute(db);
  await sql`CREATE TRIGGER assets_duplicates_near_update AFTER UPDATE ON assets
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hangar_duplicate_assets_touch()`.execute(
    db,
  );
  // The workspace's distance.
  await sql`
    CREATE FUNCTION hangar_duplicate_settings_touch() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM hangar_duplicate_near_touch(ARRAY[NEW.workspace_id]);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER duplicate_settings_near AFTER INSERT OR UPDATE ON duplicate_settings
    FOR EACH ROW EXECUTE FUNCTION hangar_duplicate_settings_touch()`.execute(db);

  // Regroups one workspace's exact duplicates (or all): the backfill here, and bulk loads that ran with
  // triggers off (bench/listing).
  await sql`
    CREATE FUNCTION hangar_duplicate_exact_rebuild(ws uuid) RETURNS void LANGUAGE sql AS $$
      DELETE FROM duplicate_groups WHERE kind = 'exact' AND (ws IS NULL OR workspace_id = ws);
      INSERT INTO duplicate_groups (workspace_id, kind, sha256, asset_ids, first_id, count, size, reclaimable, distance)
      SELECT a.workspace_id, 'exact', a.sha256, array_agg(a.id ORDER BY a.id), (array_agg(a.id ORDER BY a.id))[1],
        count(*), coalesce(sum(a.size), 0), coalesce(sum(a.size) - max(a.size), 0), 0
      FROM assets a WHERE a.sha256 IS NOT NULL AND a.deleted_at IS NULL AND NOT a.is_temp
        AND (ws IS NULL OR a.workspace_id = ws)
      GROUP BY a.workspace_id, a.sha256 HAVING count(*) > 1;
    $$`.execute(db);
  // The groups as they are: exact ones now, near ones at each workspace's next request.
  await sql`SELECT hangar_duplicate_exact_rebuild(NULL)`.execute(db);
  await sql`SELECT hangar_duplicate_near_touch(ARRAY(SELECT DISTINCT workspace_id FROM asset_hash_pairs))`.execute(db);
  await sql`ANALYZE duplicate_groups`.execute(db);

  await similarFunction(true).execute(db);
  await sql`ALTER TABLE asset_hashes SET (autovacuum_vacuum_insert_scale_factor = 0.02)`.execute(db);
}

/**
 * hangar_similar (migration 20261202-3201): the target's hashes, every hash sharing a band within 2
 * bits, their real distance; then the live assets whose current version they are. `byVersionFirst`:
 * the hits grouped by version before that join (this migration), else joined first (the earlier one).
 */
function similarFunction(byVersionFirst: boolean) {
  const hits = `
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
    )`;
  const live = `JOIN asset_versions v ON v.id = c.version_id
    JOIN assets a ON a.id = v.asset_id AND coalesce(a.current_version_id, a.id) = v.id
    WHERE a.workspace_id = ws AND a.id <> target AND a.deleted_at IS NULL AND NOT a.is_temp`;
  const matches = byVersionFirst
    ? `SELECT a.id, c.d::integer FROM (
         SELECT version_id, min(d) AS d FROM c WHERE d <= max_distance GROUP BY version_id) c
       ${live}`
    : `SELECT a.id, min(c.d)::integer FROM c ${live} AND c.d <= max_distance GROUP BY a.id`;
  return sql.raw(`
    CREATE OR REPLACE FUNCTION hangar_similar(ws uuid, target uuid, max_distance integer)
    RETURNS TABLE (asset_id uuid, distance integer) LANGUAGE sql STABLE AS $$ ${hits} ${matches} $$`);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE asset_hashes RESET (autovacuum_vacuum_insert_scale_factor)`.execute(db);
  await similarFunction(false).execute(db);
  await sql`DROP TRIGGER IF EXISTS duplicate_settings_near ON duplicate_settings`.execute(db);
  for (const t of ["asset_hash_pairs_duplicates_insert", "asset_hash_pairs_duplicates_delete"])
    await sql.raw(`DROP TRIGGER IF EXISTS ${t} ON asset_hash_pairs`).execute(db);
  for (const t of [
    "assets_duplicates_insert",
    "assets_duplicates_update",
    "assets_duplicates_delete",
    "assets_duplicates_near_insert",
    "assets_duplicates_near_update",
  ])
    await sql.raw(`DROP TRIGGER IF EXISTS ${t} ON assets`).execute(db);
  for (const f of [
    "hangar_duplicate_settings_touch()",
    "hangar_duplicate_assets_touch()",
    "hangar_duplicate_pairs_touch()",
    "hangar_duplicate_near_touch(uuid[])",
    "hangar_duplicate_exact_apply()",
    "hangar_duplicate_exact_rebuild(uuid)",
  ])
    await sql.raw(`DROP FUNCTION IF EXISTS ${f}`).execute(db);
  await sql`DROP TABLE IF EXISTS duplicate_near_changes`.execute(db);
  await sql`DROP INDEX IF EXISTS assets_live_sha256`.execute(db);
  await sql`DROP INDEX IF EXISTS duplicate_dismissals_members`.execute(db);
  await sql`DROP TABLE IF EXISTS duplicate_groups`.execute(db);
}
