import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { pino } from "pino";
import type { TestProject } from "vitest/node";
import { createDb, createPool, migrateToLatest } from "../src/db/db.ts";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../src/db/embedded-postgres.ts";
import { coverageGaps } from "./route-coverage.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    /** Where test apps record each route's answers (route-coverage.ts). */
    routeCoverageDir: string;
  }
}

/**
 * One fresh database per run, on the embedded PostgreSQL or on TEST_DATABASE_URL's server.
 * Migrations run here once, so test files never race on them (each test env has its own job schema).
 * The projects of a run (api, processes: vitest.config.ts) share it: their global setups run in the
 * same main process, so the first starts it and the last to finish takes it down; that last one also
 * judges the route coverage when HANGAR_ROUTE_GATE=1 (`npm test` sets it for the whole suite).
 */
const coverageDir = path.join(os.tmpdir(), `hangar-route-coverage-${process.pid}`);

const run = globalThis as {
  hangarTestDb?: Promise<{ url: string; teardown: () => Promise<void> }>;
  hangarTestDbUsers?: number;
};

export default async function setup(project: TestProject) {
  run.hangarTestDb ??= startDatabase();
  run.hangarTestDbUsers = (run.hangarTestDbUsers ?? 0) + 1;
  const { url, teardown } = await run.hangarTestDb;
  project.provide("databaseUrl", url);
  project.provide("routeCoverageDir", coverageDir);
  return async () => {
    run.hangarTestDbUsers = (run.hangarTestDbUsers ?? 1) - 1;
    if (run.hangarTestDbUsers > 0) return;
    run.hangarTestDb = undefined;
    await teardown();
    const gaps = coverageGaps(coverageDir);
    await rm(coverageDir, { recursive: true, force: true });
    if (process.env.HANGAR_ROUTE_GATE !== "1") return;
    const lines = [
      ...gaps.noSuccess.map((r) => `  ${r}: no test saw it succeed`),
      ...gaps.noInvalid.map((r) => `  ${r}: no test saw it refuse a body with 422`),
      ...gaps.noAudit.map((r) => `  ${r}: succeeded in tests but never wrote an audit row (issue 36)`),
    ];
    if (lines.length) {
      // A teardown's throw is only logged by vitest ("error during close") and the run still exits 0.
      process.stderr.write(`Route coverage gate failed (apps/server/test/route-coverage.ts):\n${lines.join("\n")}\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(
      "Route coverage gate: every contract route succeeded and refused a bad body in some test, every mutation wrote an audit row\n",
    );
  };
}

async function startDatabase() {
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "warn" });
  let embedded: EmbeddedPostgres | null = null;
  let tmp: string | null = null;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    tmp = await mkdtemp(path.join(os.tmpdir(), "hangar-test-pg-"));
    // mkdtemp makes 0700; as root the cluster would then be relocated (and outlive the temp dir).
    await chmod(tmp, 0o755);
    embedded = await startEmbeddedPostgres({ dataDir: path.join(tmp, "pg"), log });
    adminUrl = embedded.url;
  }
  const dbName = `hangar_test_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();

  const pool = createPool(databaseUrl, 2, log);
  const db = createDb(pool);
  await migrateToLatest(db);
  await db.destroy();

  process.stdout.write(
    `API tests on ${embedded ? "the embedded PostgreSQL" : "TEST_DATABASE_URL"} (database ${dbName})\n`,
  );

  const teardown = async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    await c.end();
    await embedded?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  };
  return { url: databaseUrl, teardown };
}
