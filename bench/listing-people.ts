import type { AssetListInput } from "@hangar/contract";
import { sql } from "kysely";
import type { Db } from "../apps/server/src/db/db.ts";

/**
 * bench/listing's `people` cases (issue 32): 200 people, and one or two faces on about one asset's
 * current version in eight of the million (every 8th by upload order: 125,000 faces, as a photo
 * library with people in a tenth of its pictures). Person k is on the assets whose index i satisfies
 * (i / 8) mod 200 = k (about 625 each, spread over the whole timeline) and, for i mod 16 = 0, also
 * person (k + 1) mod 200. Written once in one statement; later runs reuse them. The cases: one
 * person, one person and a file type, two people (any of), and everyone but one person.
 */
export async function peopleCases(db: Db, ws: string): Promise<Array<[string, AssetListInput]>> {
  const seeded = await sql`SELECT 1 FROM people WHERE workspace_id = ${ws} LIMIT 1`.execute(db);
  if (!seeded.rows.length) {
    await sql`INSERT INTO people (workspace_id, name)
      SELECT ${ws}::uuid, 'Person ' || k FROM generate_series(0, 199) k`.execute(db);
    await sql`ALTER TABLE faces DISABLE TRIGGER USER`.execute(db);
    await sql`
      WITH p AS (SELECT id, row_number() OVER (ORDER BY name) - 1 AS k FROM people WHERE workspace_id = ${ws}),
      a AS (SELECT coalesce(current_version_id, id) AS version_id, row_number() OVER (ORDER BY date_uploaded, id) - 1 AS i
            FROM assets WHERE workspace_id = ${ws})
      INSERT INTO faces (workspace_id, version_id, frame, box, quality, descriptor, person_id)
      SELECT ${ws}::uuid, a.version_id, 0, ARRAY[0.3, 0.2, 0.2, 0.25]::real[], 0.9, NULL::real[], p.id
      FROM a JOIN p ON p.k = (a.i / 8) % 200 WHERE a.i % 8 = 0
      UNION ALL
      SELECT ${ws}::uuid, a.version_id, 0, ARRAY[0.6, 0.2, 0.2, 0.25]::real[], 0.8, NULL::real[], p.id
      FROM a JOIN p ON p.k = ((a.i / 8) + 1) % 200 WHERE a.i % 16 = 0`.execute(db);
    await sql`ALTER TABLE faces ENABLE TRIGGER USER`.execute(db);
    await sql`ANALYZE faces`.execute(db);
    await sql`ANALYZE people`.execute(db);
  }
  const ids = (
    await sql<{ id: string }>`SELECT id FROM people WHERE workspace_id = ${ws} ORDER BY name LIMIT 3`.execute(db)
  ).rows.map((r) => r.id);
  const [a, b, c] = ids as [string, string, string];
  return [
    ["people: one person", { people: { includes: [a] } }],
    ["people: one + IMAGE", { people: { includes: [a] }, file_type: { includes: ["IMAGE"] } }],
    ["people: any of two", { people: { includes: [b, c] } }],
    ["people: all but one", { people: { excludes: [a] } }],
  ];
}
