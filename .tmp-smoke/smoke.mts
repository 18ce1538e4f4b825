import { startEmbeddedPostgres } from "/work/main/apps/server/src/db/embedded-postgres.ts";
import pg from "pg";
import { mkdtempSync, chmodSync } from "node:fs";
const dir = mkdtempSync("/tmp/hg-smoke-"); chmodSync(dir, 0o755);
const log = { info: (o: any, m?: string) => console.log("INFO", JSON.stringify(o), m ?? ""), warn: (o: any, m?: string) => console.log("WARN", JSON.stringify(o), m ?? ""), error: (o: any, m?: string) => console.log("ERROR", JSON.stringify(o), m ?? "") };
for (let i = 0; i < 2; i++) {
  const t = Date.now();
  const h = await startEmbeddedPostgres({ dataDir: `${dir}/data/pg`, log });
  console.log("started in", Date.now() - t);
  const c = new pg.Client(h.url); await c.connect(); console.log((await c.query("select current_user, current_database(), version()")).rows); await c.end();
  await h.stop();
}
console.log(dir);
