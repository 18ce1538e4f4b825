// bench/listing: POST /workspaces/{id}/assets on 1,000,000 assets in one workspace, ten representative
// filtered listings and a deep page (5,000), each beside the same SQL run raw through the same pool in the
// same run. Goal: p95 ≤ 1.5× raw + 5 ms and < 50 ms; page 5,000 within 1.2× of page 1.
// Run: BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/listing.ts
// A dedicated database is created on that server for the run and dropped afterwards.
import type { AssetListInput } from "@hangar/contract";
import { AssetListBody } from "@hangar/contract";
import { sql } from "kysely";
import pg from "pg";
import { hexToLab } from "../apps/server/src/media/colors.ts";
import { boundedCountSql, pageIdsSql } from "../apps/server/src/modules/assets/listing-repo.ts";
import { listingOrder, listingWhere } from "../apps/server/src/modules/assets/listing-sql.ts";
import { benchLogin, benchServer, ms, stats, time } from "./lib.ts";

const ASSETS = Number(process.env.ASSETS ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 30);

const adminUrl = process.env.BENCH_DATABASE_URL;
let dbName: string | null = null;
if (adminUrl) {
  dbName = `hangar_bench_listing_${Date.now()}`;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`CREATE DATABASE ${dbName}`);
  await c.end();
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  process.env.BENCH_DATABASE_URL = u.toString();
}

const srv = await benchServer();
const { rt } = srv;
try {
  const { workspaceId, headers } = await benchLogin(srv);
  const { user_id: userId } = await rt.db
    .selectFrom("memberships")
    .select("user_id")
    .where("workspace_id", "=", workspaceId)
    .executeTakeFirstOrThrow();

  const t0 = performance.now();
  await seed(workspaceId, userId);
  const seedMs = performance.now() - t0;

  const cases: Array<[string, AssetListInput]> = [
    ["all, -date_uploaded", {}],
    ["file_type IMAGE", { file_type: { includes: ["IMAGE"] } }],
    ["search 'sunset'", { search: "sunset" }],
    ["tags includes 1 tag", { tags: { includes: ["tag7"] } }],
    ["favorite (1k of caller)", { favorite: true }],
    ["color_search #ff0000", { colors: { color_search: "#ff0000" } }],
    ["camera Canon, iso ≥ 800", { exif: { camera: { camera_makes: ["Canon"] }, technical: { iso_min: 800 } } }],
    ["uploaded in one month", { date_uploaded_from: "2025-03-01", date_uploaded_to: "2025-03-31" }],
    ["or_groups VIDEO | tag", { or_groups: [{ file_type: { includes: ["VIDEO"] } }, { tags: { any_of: ["tag3"] } }] }],
    ["jpg by name", { file_extension: { includes: ["jpg"] }, order_by: "name" }],
    ["page 1", { page: 1 }],
    ["page 5,000", { page: 5000 }],
  ];
  const url = `${srv.base}/api/v1/workspaces/${workspaceId}/assets`;
  console.log(
    `bench/listing on ${srv.label}: ${ASSETS.toLocaleString("en")} assets, seeded in ${ms(seedMs)}; ${RUNS} runs each`,
  );
  console.log(
    `${"case".padEnd(28)} ${"endpoint p50".padStart(12)} ${"p95".padStart(9)} ${"raw p50".padStart(9)} ${"p95".padStart(9)}  total_count   verdict`,
  );
  const p95s: Record<string, number> = {};
  for (const [label, input] of cases) {
    const body = AssetListBody.parse(input);
    let total = "";
    const endpoint = await time(async () => {
      const r = await fetch(url, { method: "POST", headers, body: JSON.stringify(input) });
      if (r.status !== 200) throw new Error(`${label}: ${r.status} ${await r.text()}`);
      const j = (await r.json()) as { pagination: { total_count: number; count_is_estimate: boolean } };
      total = `${j.pagination.total_count}${j.pagination.count_is_estimate ? " (est.)" : ""}`;
    }, RUNS);
    // The reference: the endpoint's own two filter statements (page ids, bounded count), compiled and run
    // raw through the same pool, in parallel as the service runs them.
    const where = listingWhere(body, { workspaceId, userId });
    const page = pageIdsSql(
      where,
      listingOrder(body.order_by),
      body.page_size + 1,
      (body.page - 1) * body.page_size,
    ).compile(rt.db);
    const count = boundedCountSql(where).compile(rt.db);
    const raw = await time(
      () =>
        Promise.all([
          rt.pool.query(page.sql, page.parameters as unknown[]),
          rt.pool.query(count.sql, count.parameters as unknown[]),
        ]),
      RUNS,
    );
    const e = stats(endpoint);
    const r = stats(raw);
    p95s[label] = e.p95;
    const ok = e.p95 <= 1.5 * r.p95 + 5 && e.p95 < 50;
    console.log(
      `${label.padEnd(28)} ${ms(e.median).padStart(12)} ${ms(e.p95).padStart(9)} ${ms(r.median).padStart(9)} ${ms(r.p95).padStart(9)}  ${total.padStart(12)}   ${ok ? "ok" : "MISSED"}`,
    );
  }
  const deep = p95s["page 5,000"]! / p95s["page 1"]!;
  console.log(`page 5,000 / page 1 (p95): ${deep.toFixed(2)}×   goal ≤ 1.2×`);
} finally {
  await srv.close();
  if (adminUrl && dbName) {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await c.end();
  }
}

/**
 * 1M assets in SQL (generate_series), with the secondary indexes dropped during the load and rebuilt
 * from their own definitions after, and the listing triggers off (their columns filled in bulk here).
 */
async function seed(ws: string, userId: string) {
  // One connection throughout: temp tables and SET are per session.
  await rt.db.connection().execute((db) => seedOn(db, ws, userId));
}

async function seedOn(
  db: import("kysely").Kysely<import("../apps/server/src/db/types.ts").DB>,
  ws: string,
  userId: string,
) {
  const hexes = [
    "#ff0000",
    "#e03020",
    "#ff8800",
    "#ffdd00",
    "#22aa22",
    "#0066ff",
    "#1e90ff",
    "#8833cc",
    "#ff66aa",
    "#8b4513",
    "#000000",
    "#ffffff",
    "#808080",
    "#336699",
    "#99cc33",
    "#cc9966",
  ];
  const names = [
    "red",
    "red",
    "orange",
    "yellow",
    "green",
    "blue",
    "blue",
    "purple",
    "pink",
    "brown",
    "black",
    "white",
    "gray",
    "blue",
    "green",
    "brown",
  ];
  const colorRows = hexes.map((h, i) => {
    const { l, a, b } = hexToLab(h);
    return sql`(${i}, ${h}, ${names[i]}, ${l}, ${a}, ${b})`;
  });
  await sql`CREATE TEMP TABLE bench_colors (ci int, hex text, name text, l real, a real, b real)`.execute(db);
  await sql`INSERT INTO bench_colors VALUES ${sql.join(colorRows)}`.execute(db);
  const idx = await sql<{ indexdef: string; indexname: string }>`
    SELECT indexname, indexdef FROM pg_indexes i
    WHERE tablename IN ('assets', 'asset_colors', 'asset_tags', 'ai_tags', 'asset_favorites')
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`.execute(db);
  for (const i of idx.rows) await sql`DROP INDEX ${sql.raw(i.indexname)}`.execute(db);
  for (const t of ["assets", "asset_tags", "ai_tags"])
    await sql`ALTER TABLE ${sql.table(t)} DISABLE TRIGGER USER`.execute(db);

  const words = ["sunset", "beach", "portrait", "city", "forest", "product", "team", "logo", "mountain", "street"];
  await sql`CREATE TEMP TABLE bench_words AS SELECT * FROM unnest(${words}::text[]) WITH ORDINALITY AS w(word, n)`.execute(
    db,
  );
  const tagIds: string[] = [];
  for (let i = 0; i < 50; i++)
    tagIds.push(
      (
        await db
          .insertInto("tags")
          .values({ workspace_id: ws, name: `tag${i}` })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id,
    );

  const BATCH = 250_000;
  for (let start = 0; start < ASSETS; start += BATCH) {
    const end = Math.min(ASSETS, start + BATCH) - 1;
    await sql`
      INSERT INTO assets (workspace_id, name, description, status, is_temp, file_type, file_extension, mime_type, size,
        date_uploaded, date_taken, exif, camera_make, camera_model, iso, aperture, exposure_time, focal_length,
        gps_latitude, gps_longitude, palette, simplified_colors, quality_contrast, quality_sharpness, quality_brightness,
        search_text, search_vector)
      SELECT ${ws}::uuid, x.name, NULL, 'COMPLETED', false, x.ft, x.ext, 'application/octet-stream', (i::bigint * 7919) % 50000000,
        timestamptz '2024-01-01' + i * interval '63 seconds',
        CASE WHEN x.ft = 'IMAGE' THEN timestamptz '2023-01-01' + i * interval '60 seconds' END,
        CASE WHEN x.ft = 'IMAGE' THEN '{}'::jsonb END,
        CASE WHEN x.ft = 'IMAGE' THEN (ARRAY['Canon','Nikon','Sony','Fujifilm','Apple'])[1 + i % 5] END,
        CASE WHEN x.ft = 'IMAGE' THEN 'Model ' || (i % 17) END,
        CASE WHEN x.ft = 'IMAGE' THEN (ARRAY[100,200,400,800,1600,3200])[1 + i % 6] END,
        CASE WHEN x.ft = 'IMAGE' THEN (ARRAY[1.8,2.8,4,5.6,8])[1 + i % 5] END,
        CASE WHEN x.ft = 'IMAGE' THEN (ARRAY[0.001,0.004,0.01,0.033])[1 + i % 4] END,
        CASE WHEN x.ft = 'IMAGE' THEN (ARRAY[24,35,50,85])[1 + i % 4] END,
        CASE WHEN x.ft = 'IMAGE' AND i % 3 = 0 THEN -60 + (i % 120) END,
        CASE WHEN x.ft = 'IMAGE' AND i % 3 = 0 THEN -170 + (i % 340) END,
        jsonb_build_array(jsonb_build_object('hex', c1.hex, 'share', 0.7, 'lab', jsonb_build_object('l', c1.l, 'a', c1.a, 'b', c1.b)),
                          jsonb_build_object('hex', c2.hex, 'share', 0.3, 'lab', jsonb_build_object('l', c2.l, 'a', c2.a, 'b', c2.b))),
        ARRAY[c1.name, c2.name], i % 101, (i * 3) % 101, (i * 7) % 101,
        hangar_norm(concat_ws(' ', x.name, 'tag' || (i % 50), 'label' || (i % 20))),
        to_tsvector('english', hangar_norm(concat_ws(' ', x.name, 'tag' || (i % 50), 'label' || (i % 20))))
      FROM generate_series(${start}::int, ${end}::int) i
      CROSS JOIN LATERAL (SELECT
        (ARRAY['IMAGE','IMAGE','IMAGE','IMAGE','IMAGE','IMAGE','VIDEO','VIDEO','DOCUMENT','OTHER'])[1 + i % 10] AS ft,
        (ARRAY['jpg','jpg','png','heic','jpg','webp','mp4','mov','pdf','zip'])[1 + i % 10] AS ext,
        (SELECT word FROM bench_words WHERE n = 1 + (i * 31) % 10) || ' ' || i AS name) x
      JOIN bench_colors c1 ON c1.ci = (i * 13) % 16
      JOIN bench_colors c2 ON c2.ci = (i * 5 + 3) % 16`.execute(db);
  }
  await sql`
    INSERT INTO asset_colors (asset_id, position, hex, share, l, a, b)
    SELECT a.id, (e.n - 1)::smallint, e.c->>'hex', (e.c->>'share')::real, (e.c->'lab'->>'l')::real, (e.c->'lab'->>'a')::real, (e.c->'lab'->>'b')::real
    FROM assets a, jsonb_array_elements(a.palette) WITH ORDINALITY e(c, n) WHERE a.workspace_id = ${ws}`.execute(db);
  // One manual tag each (tag{i % 50}), one AI label each, 1,000 favourites of the caller.
  await sql`
    INSERT INTO asset_tags (asset_id, tag_id)
    SELECT a.id, t.id FROM (SELECT id, row_number() OVER (ORDER BY date_uploaded) - 1 AS i FROM assets WHERE workspace_id = ${ws}) a
    JOIN tags t ON t.workspace_id = ${ws} AND t.name = 'tag' || (a.i % 50)`.execute(db);
  await sql`
    INSERT INTO ai_tags (asset_id, workspace_id, label, confidence, type)
    SELECT a.id, ${ws}, 'label' || (a.i % 20), 0.5 + (a.i % 50) / 100.0, 'object'
    FROM (SELECT id, row_number() OVER (ORDER BY date_uploaded) - 1 AS i FROM assets WHERE workspace_id = ${ws}) a`.execute(
    db,
  );
  await sql`
    INSERT INTO asset_favorites (user_id, asset_id)
    SELECT ${userId}, id FROM assets WHERE workspace_id = ${ws} ORDER BY id LIMIT 1000`.execute(db);

  for (const t of ["assets", "asset_tags", "ai_tags"])
    await sql`ALTER TABLE ${sql.table(t)} ENABLE TRIGGER USER`.execute(db);
  await sql`SET maintenance_work_mem = '512MB'`.execute(db);
  for (const i of idx.rows) await sql.raw(i.indexdef).execute(db);
  await sql`VACUUM ANALYZE assets, asset_colors, asset_tags, ai_tags, asset_favorites`.execute(db);
}
