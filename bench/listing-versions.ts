import { type Kysely, sql } from "kysely";
import type { DB } from "../apps/server/src/db/types.ts";
import { VERSION_FACTS } from "../apps/server/src/modules/assets/versions-repo.ts";

/**
 * bench/listing's versions (issue 29): every asset has its first version (the row the product's
 * trigger would write, id = the asset's), and about 10 % of them (i·7919 mod 1009 < 101, so neither
 * the file type nor the tag, which follow i mod 10 and i mod 50, predicts it) have 2–5 versions.
 * Such an asset's newest version is current, as after uploads that completed in order: its row holds
 * the asset's facts, its media directory `{workspace}/{version}`, and the asset points at it
 * (current_version_id, current_version_number, version_count) with its directory and original key.
 * Older versions were uploaded a week apart before it, with their own size, checksum, dimensions and
 * the AI tags kept when they stopped being current. The asset rows' other columns do not change, so
 * the existing cases list what they listed before.
 *
 * Runs on the seed's connection with the triggers of `assets` and `asset_versions` off (the product
 * writes these rows one upload at a time; a million NOTIFYs of the cache trigger would only be noise).
 * Answers how many assets have more than one version.
 */
export async function seedVersions(db: Kysely<DB>, ws: string, userId: string): Promise<number> {
  const facts = VERSION_FACTS.filter((c) => c !== "duplicate_of");
  // The current version: the asset's facts as they are. An older one: the same kind of file with
  // other bytes (size, checksum, pixels), its own directory and original, and its own AI tags.
  const older: Record<string, string> = {
    size: "greatest(1, a.size - 1000 * (v.n - s.k))",
    sha256: "md5(s.vid::text) || md5(a.id::text)",
    width: "a.width - 10 * (v.n - s.k)",
    height: "a.height - 10 * (v.n - s.k)",
  };
  const mediaOf: Record<string, string> = {
    directory: `${lit(ws)} || '/' || s.vid`,
    storage_key: `'media/' || ${lit(ws)} || '/' || s.vid || '/original'`,
  };
  const values = facts
    .map((c) => mediaOf[c] ?? (older[c] ? `CASE WHEN s.k = v.n THEN a.${c} ELSE ${older[c]} END` : `a.${c}`))
    .join(", ");

  await sql`CREATE TEMP TABLE bench_versioned AS
    SELECT a.id, a.i, 2 + ((a.i * 31) % 997) % 4 AS n
    FROM (SELECT id, row_number() OVER (ORDER BY date_uploaded) - 1 AS i FROM assets WHERE workspace_id = ${ws}) a
    WHERE (a.i * 7919) % 1009 < 101`.execute(db);
  await sql`CREATE UNIQUE INDEX ON bench_versioned (id)`.execute(db);
  await sql`ANALYZE bench_versioned`.execute(db);

  for (const t of ["assets", "asset_versions"]) await sql`ALTER TABLE ${sql.table(t)} DISABLE TRIGGER USER`.execute(db);
  await sql
    .raw(`
    INSERT INTO asset_versions (id, asset_id, workspace_id, number, name, ${facts.join(", ")},
      ai_tags, uploaded_by, created_at)
    SELECT s.vid, a.id, a.workspace_id, s.k, a.name, ${values},
      CASE WHEN s.k < v.n THEN jsonb_build_array(jsonb_build_object(
        'label', 'label' || ((v.i + s.k) % 20), 'confidence', (0.5 + ((v.i + s.k) % 50) / 100.0)::real, 'type', 'object')) END,
      ${lit(userId)}::uuid, a.date_uploaded - (v.n - s.k) * interval '7 days'
    FROM assets a
    LEFT JOIN bench_versioned bv ON bv.id = a.id
    CROSS JOIN LATERAL (SELECT coalesce(bv.n, 1) AS n, coalesce(bv.i, 0) AS i) v
    CROSS JOIN LATERAL (SELECT k, CASE WHEN k = 1 THEN a.id ELSE gen_random_uuid() END AS vid
                        FROM generate_series(1, v.n) k) s
    WHERE a.workspace_id = ${lit(ws)}`)
    .execute(db);
  // The asset's directory and original are its current version's.
  await sql`
    UPDATE assets a SET current_version_id = v.id, current_version_number = v.number, version_count = v.number,
      directory = v.directory, storage_key = v.storage_key
    FROM bench_versioned bv JOIN asset_versions v ON v.asset_id = bv.id AND v.number = bv.n
    WHERE a.id = bv.id`.execute(db);
  for (const t of ["assets", "asset_versions"]) await sql`ALTER TABLE ${sql.table(t)} ENABLE TRIGGER USER`.execute(db);
  const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM bench_versioned`.execute(db);
  await sql`DROP TABLE bench_versioned`.execute(db);
  return r.rows[0]?.n ?? 0;
}

/** A uuid as an SQL literal (the seed's own ids, never user input). */
function lit(uuid: string): string {
  if (!/^[0-9a-f-]{36}$/.test(uuid)) throw new Error(`not a uuid: ${uuid}`);
  return `'${uuid}'`;
}
