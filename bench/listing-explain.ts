// EXPLAIN (ANALYZE, BUFFERS) of every statement the listing service runs for each bench/listing case, on
// the database a `BENCH_REUSE=1 npx tsx bench/listing.ts` run kept (hangar_bench_listing).
// Run: BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/hangar_bench_listing npx tsx bench/listing-explain.ts [case filter]
// (TIME=n times each statement n times instead; BODY='{...}' explains one payload of your own.)
import { AssetListBody } from "@hangar/contract";
import pg from "pg";
import { createRuntime } from "../apps/server/src/runtime.ts";
import { LISTING_CASES } from "./listing-cases.ts";
import { capture } from "./sql-capture.ts";

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error("BENCH_DATABASE_URL: the kept bench database");
const filter = process.argv[2]?.toLowerCase();
const { loadConfig } = await import("../apps/server/src/config.ts");
const { pino } = await import("pino");
const rt = createRuntime(loadConfig({ NODE_ENV: "production", LOG_LEVEL: "warn" }), url, pino({ level: "warn" }));
const client = new pg.Client({ connectionString: url });
await client.connect();
await client.query("SET jit = off"); // as the app's pool (db.ts)
try {
  const { rows } = await client.query<{ workspace_id: string; user_id: string }>(
    `SELECT m.workspace_id, m.user_id FROM memberships m
     WHERE m.workspace_id = (SELECT workspace_id FROM assets LIMIT 1) ORDER BY m.created_at DESC LIMIT 1`,
  );
  const { workspace_id: ws, user_id: userId } = rows[0]!;
  const user = await rt.db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
  const actor = { kind: "user" as const, userId, sessionId: "explain", user };
  // BODY='{"search":"x"}' explains that payload instead of the bench's cases.
  const cases = process.env.BODY ? [["BODY", JSON.parse(process.env.BODY)] as const] : LISTING_CASES;
  for (const [label, input] of cases) {
    if (filter && !label.toLowerCase().includes(filter)) continue;
    const body = AssetListBody.parse(input);
    await rt.services.listing.list(actor, ws, body); // warm
    const t = performance.now();
    const statements = await capture(() => rt.services.listing.list(actor, ws, body));
    console.log(
      `\n=== ${label}: ${(performance.now() - t).toFixed(1)} ms in the service, ${statements.length} statements`,
    );
    if (process.env.TIME) {
      // Each statement alone, N times on one connection: median and p95 of execution + round trip.
      for (const s of statements) {
        const xs: number[] = [];
        for (let i = 0; i < Number(process.env.TIME); i++) {
          const t0 = performance.now();
          await client.query(s.text, s.values);
          xs.push(performance.now() - t0);
        }
        xs.sort((a, b) => a - b);
        const at = (q: number) => xs[Math.floor(q * xs.length)]!.toFixed(2);
        console.log(`  p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  ${s.text.replace(/\s+/g, " ").slice(0, 120)}`);
      }
      continue;
    }
    for (const s of statements) {
      if (process.env.ALL)
        console.log(`  [${s.start.toFixed(1)}..${s.end.toFixed(1)}] ${s.text.replace(/\s+/g, " ").slice(0, 200)}`);
      if (!/\bassets\b/.test(s.text) || !/^\s*(SELECT|WITH)/i.test(s.text)) continue;
      console.log(`--- ${s.text.replace(/\s+/g, " ").slice(0, 300)}`);
      console.log(`    params ${JSON.stringify(s.values).slice(0, 300)}`);
      const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${s.text}`, s.values);
      for (const r of plan.rows) console.log(`    ${r["QUERY PLAN"]}`);
    }
  }
} finally {
  await client.end();
  await rt.close();
}
