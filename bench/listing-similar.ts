import type { AssetListInput } from "@hangar/contract";
import { sql } from "kysely";
import type { Db } from "../apps/server/src/db/db.ts";

/**
 * bench/listing's `similar_to` cases (issue 32): a perceptual hash for every asset's current version
 * of the seeded million (pseudo-random from the version id, so the bands spread as real hashes do),
 * and about 1,000 near copies of one target's hash (1–3 bits flipped; every 1000th asset). Written
 * once in one statement; later runs reuse them. The cases: the target's near copies alone, with a
 * file type (the hash index first, then the other condition on ~1,000 rows), and a target nothing
 * looks like.
 */
export async function similarCases(db: Db, ws: string): Promise<Array<[string, AssetListInput]>> {
  const target = await sql<{ id: string; alone: string }>`
    SELECT (SELECT id FROM assets WHERE workspace_id = ${ws} ORDER BY date_uploaded, id LIMIT 1) AS id,
           (SELECT id FROM assets WHERE workspace_id = ${ws} ORDER BY date_uploaded, id OFFSET 1 LIMIT 1) AS alone`.execute(
    db,
  );
  const { id, alone } = target.rows[0]!;
  const seeded = await sql`SELECT 1 FROM asset_hashes WHERE workspace_id = ${ws} LIMIT 1`.execute(db);
  if (!seeded.rows.length) {
    await sql`
      INSERT INTO asset_hashes (version_id, frame, workspace_id, hash)
      SELECT coalesce(a.current_version_id, a.id), 0, ${ws},
        CASE WHEN a.i % 1000 = 0 AND a.i > 0
          THEN ('x' || substr(md5(${id}::text), 1, 16))::bit(64)::bigint
               # (1::bigint << ((a.i / 1000) % 61)::integer) # (((a.i / 1000) % 4)::bigint << 61)
          ELSE ('x' || substr(md5(coalesce(a.current_version_id, a.id)::text), 1, 16))::bit(64)::bigint END
      FROM (SELECT id, current_version_id, row_number() OVER (ORDER BY date_uploaded, id) - 1 AS i
            FROM assets WHERE workspace_id = ${ws}) a`.execute(db);
    // The target's own hash is the one its copies derive from.
    await sql`UPDATE asset_hashes SET hash = ('x' || substr(md5(${id}::text), 1, 16))::bit(64)::bigint
      WHERE version_id = (SELECT coalesce(current_version_id, id) FROM assets WHERE id = ${id})`.execute(db);
    // As a running server's autovacuum leaves it (the band indexes are read index-only).
    await sql`VACUUM ANALYZE asset_hashes`.execute(db);
  }
  return [
    ["similar_to (~1,000 near)", { similar_to: { asset_id: id, max_distance: 8 } }],
    ["similar_to + IMAGE", { similar_to: { asset_id: id, max_distance: 8 }, file_type: { includes: ["IMAGE"] } }],
    ["similar_to, none alike", { similar_to: { asset_id: alone, max_distance: 11 } }],
    // Nearest first (the grid's order for similar_to): the ~1,000 matches sorted by distance, page 1 and 50.
    ["similar_to nearest first", { similar_to: { asset_id: id, max_distance: 8 }, order_by: "distance" }],
    ["similar_to nearest, page 50", { similar_to: { asset_id: id, max_distance: 8 }, order_by: "distance", page: 50 }],
  ];
}
