import { Kysely, Migrator, PostgresDialect, sql } from "kysely";
import pg from "pg";
import type { Logger } from "pino";
import { auditedPool } from "../platform/audit-context.ts";
import { migrationProvider } from "./migrations/index.ts";
import type { DB } from "./types.ts";

export type Db = Kysely<DB>;

// timestamptz as Date (default), bigint (int8) as number: counts and sizes stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export function createPool(url: string, max: number, log: Logger): pg.Pool {
  // jit off for the app's sessions: its statements are index-driven and answer in milliseconds, but a
  // plan whose estimated cost passes jit_above_cost (the listing's guarded and probing plans price
  // branches that never run) spent 20–170 ms compiling expressions before a 0.1 ms execution
  // (bench/listing, issue 19).
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    options: "-c jit=off",
  });
  // An idle client losing its connection (database restart, network) emits 'error' on the pool;
  // unhandled, that kills the process. The pool drops that client and opens a new one on demand.
  pool.on("error", (err) =>
    log.warn(
      { err: { message: err.message, code: (err as { code?: string }).code } },
      "database connection lost; the pool reconnects on demand",
    ),
  );
  // A client checked out (inside a transaction) when its connection dies emits 'error' on itself,
  // not on the pool; its query already fails (→ 503). Handled here so it never becomes an uncaught error.
  pool.on("connect", (client) => {
    client.on("error", (err) =>
      log.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, "database connection lost"),
    );
  });
  return pool;
}

/** The app's queries: each connection carries who is acting for the audit triggers (platform/audit-context.ts). */
export function createDb(pool: pg.Pool): Db {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: auditedPool(pool) }) });
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(
      `Migration ${failed?.migrationName ?? ""} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** True when every known migration has been applied. */
export async function migrationsApplied(db: Db): Promise<boolean> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const list = await migrator.getMigrations();
  return list.every((m) => m.executedAt !== undefined);
}

export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
