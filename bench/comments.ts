// bench/comments: review at scale. A workspace holds 1,000,000 comments (10,000 assets × 100, a third of
// them replies) and one "hot" asset 10,000 more (2,000 threads of five). Measured:
// - the comment list calls (top-level page 1 and a deep cursor page of the hot asset, one thread's
//   replies, an ordinary asset's list), each p95 beside the very SQL statements it ran, replayed raw
//   (bench/sql-capture.ts), interleaved. Goal: ≤ 1.5× raw + 5 ms.
// - SSE fan-out: 200 connected clients of the workspace's event stream; the time from a comment's
//   commit (its POST answered) to its event at each client. Goal: p95 < 1 s.
// Run: BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/comments.ts
// (RUNS=100, CLIENTS=200, COMMENTS=1000000). A dedicated database is created for the run and dropped.
import { sql } from "kysely";
import pg from "pg";
import { readSse } from "../apps/server/test/sse.ts";
import { benchLogin, benchServer, ms, stats } from "./lib.ts";
import { compareToRaw } from "./sql-capture.ts";

const RUNS = Number(process.env.RUNS ?? 100);
const CLIENTS = Number(process.env.CLIENTS ?? 200);
const COMMENTS = Number(process.env.COMMENTS ?? 1_000_000);
const ASSETS = 10_000;

const adminUrl = process.env.BENCH_DATABASE_URL;
let dbName: string | null = null;
if (adminUrl) {
  dbName = `hangar_bench_comments_${Date.now()}`;
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
  const { workspaceId: ws, headers } = await benchLogin(srv);
  const { user_id: userId } = await rt.db
    .selectFrom("memberships")
    .select("user_id")
    .where("workspace_id", "=", ws)
    .executeTakeFirstOrThrow();
  const t0 = performance.now();
  await rt.db.connection().execute(async (db) => {
    await sql`ALTER TABLE comments DISABLE TRIGGER USER`.execute(db);
    await sql`
      INSERT INTO assets (workspace_id, name, status, is_temp, file_type)
      SELECT ${ws}::uuid, 'asset-' || g, 'COMPLETED', false, 'IMAGE' FROM generate_series(1, ${ASSETS + 1}) g`.execute(
      db,
    );
    await sql`CREATE TEMP TABLE bench_assets AS
      SELECT id, row_number() OVER (ORDER BY name) AS n FROM assets WHERE workspace_id = ${ws}`.execute(db);
    // Two thirds top-level, one third replies of them; then the hot asset's 2,000 threads of five.
    const perAsset = Math.max(3, Math.round(COMMENTS / ASSETS));
    const tops = Math.round((perAsset * 2) / 3);
    await sql`
      INSERT INTO comments (id, workspace_id, asset_id, thread_id, author_id, text, created_at, updated_at)
      SELECT s.id, ${ws}::uuid, s.asset_id, s.id, ${userId}::uuid, 'Comment ' || s.g, now() - make_interval(secs => s.g),
        now() - make_interval(secs => s.g)
      FROM (SELECT gen_random_uuid() AS id, a.id AS asset_id, g FROM bench_assets a CROSS JOIN generate_series(1, ${tops}) g
            WHERE a.n <= ${ASSETS}) s`.execute(db);
    await sql`
      INSERT INTO comments (id, workspace_id, asset_id, parent_id, thread_id, author_id, text, created_at, updated_at)
      SELECT gen_random_uuid(), t.workspace_id, t.asset_id, t.id, t.id, ${userId}::uuid, 'Reply', t.created_at + interval '1 minute', t.created_at + interval '1 minute'
      FROM (SELECT c.*, row_number() OVER (PARTITION BY c.asset_id ORDER BY c.created_at) AS k FROM comments c) t
      WHERE t.k <= ${perAsset - tops}`.execute(db);
    const hot = (await sql<{ id: string }>`SELECT id FROM bench_assets WHERE n = ${ASSETS + 1}`.execute(db)).rows[0]!
      .id;
    await sql`
      INSERT INTO comments (id, workspace_id, asset_id, thread_id, author_id, text, annotation_type, x, y, created_at, updated_at)
      SELECT s.id, ${ws}::uuid, ${hot}::uuid, s.id, ${userId}::uuid, 'Thread ' || s.g, 'POINT', s.g % 100, (s.g * 7) % 100,
        timestamptz '2026-01-01' + make_interval(secs => s.g * 10), timestamptz '2026-01-01' + make_interval(secs => s.g * 10)
      FROM (SELECT gen_random_uuid() AS id, g FROM generate_series(1, 2000) g) s`.execute(db);
    await sql`
      INSERT INTO comments (id, workspace_id, asset_id, parent_id, thread_id, author_id, text, created_at, updated_at)
      SELECT gen_random_uuid(), c.workspace_id, c.asset_id, c.id, c.id, ${userId}::uuid, 'Reply ' || r, c.created_at + make_interval(secs => r),
        c.created_at + make_interval(secs => r)
      FROM comments c CROSS JOIN generate_series(1, 4) r WHERE c.asset_id = ${hot} AND c.parent_id IS NULL`.execute(db);
    await sql`ALTER TABLE comments ENABLE TRIGGER USER`.execute(db);
    await sql`VACUUM ANALYZE comments`.execute(db);
  });
  const counts = await sql<{ n: number }>`SELECT count(*)::int AS n FROM comments`.execute(rt.db);
  const hot = (
    await rt.db.selectFrom("comments").select(["asset_id"]).where("text", "=", "Thread 1").executeTakeFirstOrThrow()
  ).asset_id;
  const ordinary = (
    await rt.db.selectFrom("assets").select("id").where("name", "=", "asset-42").executeTakeFirstOrThrow()
  ).id;
  const thread = (
    await rt.db.selectFrom("comments").select("id").where("text", "=", "Thread 777").executeTakeFirstOrThrow()
  ).id;
  const deepCursor = (
    await rt.db.selectFrom("comments").select("id").where("text", "=", "Thread 1500").executeTakeFirstOrThrow()
  ).id;
  console.log(
    `bench/comments on ${srv.label}: ${counts.rows[0]!.n.toLocaleString("en")} comments seeded in ${ms(performance.now() - t0)}; ${RUNS} runs each`,
  );

  const base = `${srv.base}/api/v1/workspaces/${ws}/comments?content_type=asset`;
  const cases: Array<[string, string]> = [
    ["hot asset, first 100 threads", `${base}&object_id=${hot}&limit=100`],
    ["hot asset, page after 1,500", `${base}&object_id=${hot}&limit=100&cursor=${deepCursor}`],
    ["one thread's replies", `${base}&object_id=${hot}&parent_id=${thread}`],
    ["ordinary asset (100)", `${base}&object_id=${ordinary}`],
    ["hot asset, global only", `${base}&object_id=${hot}&board_id=null&limit=100`],
  ];
  console.log(
    `${"case".padEnd(30)} ${"endpoint p50".padStart(12)} ${"p95".padStart(9)} ${"raw p50".padStart(9)} ${"p95".padStart(9)}   verdict`,
  );
  for (const [label, url] of cases) {
    const call = async () => {
      const r = await fetch(url, { headers });
      if (r.status !== 200) throw new Error(`${label}: ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
    };
    const { endpoint: e, raw: r } = await compareToRaw(rt.pool, call, RUNS);
    const ok = e.p95 <= 1.5 * r.p95 + 5;
    console.log(
      `${label.padEnd(30)} ${ms(e.median).padStart(12)} ${ms(e.p95).padStart(9)} ${ms(r.median).padStart(9)} ${ms(r.p95).padStart(9)}   ${ok ? "ok" : "MISSED"} (${(e.p95 / r.p95).toFixed(2)}× raw)`,
    );
  }

  // SSE fan-out: CLIENTS streams, then comments posted one at a time; each event's delay at each client.
  const arrivals = new Map<string, number[]>();
  const ctrls: AbortController[] = [];
  let ready = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const ctrl = new AbortController();
      ctrls.push(ctrl);
      const res = await fetch(`${srv.base}/api/v1/workspaces/${ws}/events`, {
        headers: { cookie: headers.cookie },
        signal: ctrl.signal,
      });
      void readSse(res, (event, data) => {
        if (event === "ready") ready++;
        if (event !== "comment.created") return;
        const id = (data as { comment_id: string }).comment_id;
        const list = arrivals.get(id) ?? [];
        list.push(performance.now());
        arrivals.set(id, list);
      });
    }),
  );
  while (ready < CLIENTS) await new Promise((r) => setTimeout(r, 20));
  const delays: number[] = [];
  let missing = 0;
  for (let i = 0; i < 20; i++) {
    // From the request's start: the commit lies between it and the answer, so this is an upper bound.
    const sent = performance.now();
    const res = await fetch(`${srv.base}/api/v1/workspaces/${ws}/comments`, {
      method: "POST",
      headers,
      body: JSON.stringify({ content_type: "asset", object_id: ordinary, text: `fan-out ${i}` }),
    });
    const { id } = (await res.json()) as { id: string };
    const until = performance.now() + 5_000;
    while ((arrivals.get(id)?.length ?? 0) < CLIENTS && performance.now() < until)
      await new Promise((r) => setTimeout(r, 5));
    const got = arrivals.get(id) ?? [];
    missing += CLIENTS - got.length;
    for (const at of got) delays.push(at - sent);
  }
  for (const c of ctrls) c.abort();
  const d = stats(delays);
  console.log(
    `SSE fan-out to ${CLIENTS} clients, 20 comments: POST sent → arrival (≥ commit → arrival) p50 ${ms(d.median)}, p95 ${ms(d.p95)}, max ${ms(Math.max(...delays))}; ${missing} missed (goal p95 < 1 s)`,
  );
} finally {
  await srv.close();
  if (adminUrl && dbName) {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await c.end();
  }
}
