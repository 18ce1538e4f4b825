// bench/boards-tree: GET /workspaces/{id}/boards?recursive=true on 10,000 boards (depth up to 12),
// beside the same SQL run raw on the same database in the same run. Goal: ≤ 1.5× raw and < 200 ms.
// Run: npx tsx bench/boards-tree.ts   (BENCH_DATABASE_URL=postgres://… to use another server)
import { sql } from "kysely";
import { hashPassword } from "../apps/server/src/modules/auth/passwords.ts";
import { treeJsonSql } from "../apps/server/src/modules/boards/repo.ts";
import { benchServer, ms, stats, time } from "./lib.ts";

const BOARDS = Number(process.env.BOARDS ?? 10_000);
const MAX_DEPTH = 12;
const RUNS = Number(process.env.RUNS ?? 40);

const srv = await benchServer();
const { rt } = srv;
try {
  const email = `bench-${Date.now()}@example.test`;
  const user = await rt.services.users.create({
    email,
    password_hash: await hashPassword("bench password"),
    first_name: "Bench",
    last_name: "",
    email_verified_at: new Date(),
  });
  const wsId = await rt.services.workspaces.createFor(user!.id, "Bench");

  // Seed: a random tree, each new board under a random earlier board whose depth allows it.
  const t0 = performance.now();
  const ids: string[] = [];
  const depth: number[] = [];
  const childCount = new Map<string, number>();
  const rows: Array<{ id: string; workspace_id: string; parent_id: string | null; name: string; position: number }> =
    [];
  let seed = 42;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let i = 0; i < BOARDS; i++) {
    let parent: string | null = null;
    let d = 1;
    if (i >= 20 && rnd() > 0.02) {
      for (;;) {
        const k = Math.floor(rnd() * ids.length);
        if (depth[k]! < MAX_DEPTH) {
          parent = ids[k]!;
          d = depth[k]! + 1;
          break;
        }
      }
    }
    const id = crypto.randomUUID();
    const key = parent ?? "root";
    const pos = childCount.get(key) ?? 0;
    childCount.set(key, pos + 1);
    ids.push(id);
    depth.push(d);
    rows.push({ id, workspace_id: wsId, parent_id: parent, name: `Board ${i}`, position: pos });
  }
  for (let i = 0; i < rows.length; i += 1000)
    await rt.db
      .insertInto("boards")
      .values(rows.slice(i, i + 1000))
      .execute();
  await sql`ANALYZE boards`.execute(rt.db);
  const seedMs = performance.now() - t0;

  const login = await fetch(`${srv.base}/api/v1/users/set-csrf-token`);
  const csrfCookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const { data } = (await login.json()) as { data: { csrftoken: string } };
  const res = await fetch(`${srv.base}/api/v1/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: csrfCookie, "x-csrftoken": data.csrftoken },
    body: JSON.stringify({ email, password: "bench password" }),
  });
  const cookie = [csrfCookie, ...res.headers.getSetCookie().map((c) => c.split(";")[0])].join("; ");

  const url = `${srv.base}/api/v1/workspaces/${wsId}/boards?recursive=true`;
  let bytes = 0;
  const endpoint = await time(async () => {
    const r = await fetch(url, { headers: { cookie } });
    bytes = (await r.arrayBuffer()).byteLength;
    if (r.status !== 200) throw new Error(`status ${r.status}`);
  }, RUNS);
  // The reference: the endpoint's own statement, run raw through the same pool (no HTTP, no session, no access check).
  const compiled = treeJsonSql(wsId, null).compile(rt.db);
  const raw = await time(() => rt.pool.query(compiled.sql, compiled.parameters as unknown[]), RUNS);
  const e = stats(endpoint);
  const r = stats(raw);
  const maxDepth = Math.max(...depth);
  console.log(
    `bench/boards-tree on ${srv.label}: ${BOARDS} boards, depth ≤ ${maxDepth}, ${RUNS} runs each (seeded in ${ms(seedMs)})`,
  );
  console.log(`                       median      p95`);
  console.log(
    `  endpoint (HTTP)   ${ms(e.median).padStart(10)} ${ms(e.p95).padStart(10)}   (${(bytes / 1024).toFixed(0)} KiB JSON)`,
  );
  console.log(`  same SQL raw      ${ms(r.median).padStart(10)} ${ms(r.p95).padStart(10)}`);
  console.log(
    `  ratio             ${(e.median / r.median).toFixed(2).padStart(9)}× ${(e.p95 / r.p95).toFixed(2).padStart(9)}×   goal ≤ 1.5× and < 200 ms`,
  );
} finally {
  await srv.close();
}
