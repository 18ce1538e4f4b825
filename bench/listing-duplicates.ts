import { sql } from "kysely";
import type { Runtime } from "../apps/server/src/runtime.ts";

/**
 * bench/listing's duplicates (issue 32) on the seeded million, written once (later runs reuse them):
 * - exact: every 300th asset (i mod 300 = 150) and the 1–4 assets after it share its checksum, groups
 *   of 2 + (i / 300) mod 4 (3,333 groups, ~1.2 % of the assets), written by one UPDATE with the
 *   product's triggers on (the statement trigger regroups them as an upload would);
 * - near: every 500th asset (i mod 500 = 250) and the one or two after it get hashes 1–3 bits from
 *   its own (2,000 groups), saved through the product's saveHashes (its band probes find the pairs,
 *   and any random hash of the million within 11 bits besides).
 * Answers what was written (nothing when reused) and how long each part took.
 */
export async function seedDuplicates(rt: Runtime, ws: string) {
  const seeded =
    await sql`SELECT 1 FROM duplicate_groups WHERE workspace_id = ${ws} AND kind = 'exact' LIMIT 1`.execute(rt.db);
  const t0 = performance.now();
  const exact = seeded.rows.length
    ? null
    : await sql`
    WITH r AS (SELECT id, sha256, row_number() OVER (ORDER BY date_uploaded, id) - 1 AS i FROM assets WHERE workspace_id = ${ws}),
    lead AS (SELECT i, sha256, 2 + (i / 300) % 4 AS g FROM r WHERE i % 300 = 150),
    follower AS (SELECT lead.i + k AS i, lead.sha256 FROM lead, generate_series(1, lead.g - 1) k)
    UPDATE assets a SET sha256 = f.sha256 FROM follower f JOIN r ON r.i = f.i WHERE a.id = r.id`.execute(rt.db);
  const exactMs = performance.now() - t0;
  // The current versions hold the same checksum as their assets.
  await sql`UPDATE asset_versions v SET sha256 = a.sha256 FROM assets a
    WHERE a.workspace_id = ${ws} AND v.id = coalesce(a.current_version_id, a.id) AND v.sha256 IS DISTINCT FROM a.sha256`.execute(
    rt.db,
  );

  const near = await sql<{ version_id: string; hash: string }>`
    WITH r AS (SELECT coalesce(current_version_id, id) AS v, row_number() OVER (ORDER BY date_uploaded, id) - 1 AS i
               FROM assets WHERE workspace_id = ${ws}),
    lead AS (SELECT r.i, h.hash FROM r JOIN asset_hashes h ON h.version_id = r.v AND h.frame = 0 WHERE r.i % 500 = 250),
    follower AS (SELECT lead.i + k AS i, k, lead.hash FROM lead, generate_series(1, 1 + (lead.i / 500) % 2) k)
    SELECT r.v AS version_id,
      (f.hash # (CASE WHEN f.k = 1 THEN 1::bigint << (f.i % 61)::int ELSE 7::bigint << (f.i % 59)::int END))::text AS hash
    FROM follower f JOIN r ON r.i = f.i
    -- Not saved yet (a run stopped midway goes on where it stopped).
    WHERE NOT EXISTS (SELECT 1 FROM asset_hashes x WHERE x.version_id = r.v AND x.frame = 0
      AND x.hash = f.hash # (CASE WHEN f.k = 1 THEN 1::bigint << (f.i % 61)::int ELSE 7::bigint << (f.i % 59)::int END))`.execute(
    rt.db,
  );
  const t1 = performance.now();
  for (const row of near.rows) await rt.services.similar.saveHashes(ws, row.version_id, [BigInt(row.hash)]);
  const nearMs = performance.now() - t1;
  const pairs = await sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM asset_hash_pairs WHERE workspace_id = ${ws}`.execute(rt.db);
  await sql`ANALYZE duplicate_groups, asset_hash_pairs`.execute(rt.db);
  return {
    exactAssets: Number(exact?.numAffectedRows ?? 0),
    exactMs,
    nearSaved: near.rows.length,
    nearMs,
    pairs: pairs.rows[0]?.n ?? 0,
  };
}
