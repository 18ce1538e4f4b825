import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { buildApp } from "../apps/server/src/app.ts";
import { loadConfig } from "../apps/server/src/config.ts";
import { migrateToLatest } from "../apps/server/src/db/db.ts";
import { startEmbeddedPostgres } from "../apps/server/src/db/embedded-postgres.ts";
import { createRuntime } from "../apps/server/src/runtime.ts";
import { httpLogin } from "../apps/server/test/processes.ts";

/** A real server on a real database: BENCH_DATABASE_URL (e.g. the machine's PostgreSQL) or a fresh embedded one. */
export async function benchServer(opts: { work?: boolean; env?: Record<string, string>; serveWeb?: boolean } = {}) {
  const log = pino({ level: "warn" });
  let stopPg = async () => {};
  let url = process.env.BENCH_DATABASE_URL;
  let tmp: string | null = null;
  if (!url) {
    tmp = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-"));
    await chmod(tmp, 0o755);
    const pg = await startEmbeddedPostgres({ dataDir: path.join(tmp, "pg"), log });
    url = pg.url;
    stopPg = () => pg.stop();
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-data-"));
  const config = loadConfig({
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    DEMO_ACCOUNT: "0",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ...opts.env,
  });
  const rt = createRuntime(config, url, log);
  await migrateToLatest(rt.db);
  await rt.jobs.start(rt.jobDefinitions, { work: opts.work ?? false, concurrency: config.WORKER_CONCURRENCY });
  const app = await buildApp(rt, { serveWeb: opts.serveWeb ?? false });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return {
    rt,
    app,
    base,
    label: process.env.BENCH_DATABASE_URL ? "external PostgreSQL" : "embedded PostgreSQL",
    async close() {
      await app.close();
      await rt.close();
      await stopPg();
      if (tmp) await rm(tmp, { recursive: true, force: true });
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { median: at(0.5), p95: at(0.95), min: s[0]! };
}

export async function time(fn: () => Promise<unknown>, runs: number, warmup = 5): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

export const ms = (v: number) => `${v.toFixed(1)} ms`;

/** A verified user with a workspace, signed in over real HTTP: answers the cookie and CSRF token. */
export async function benchLogin(srv: { base: string; rt: import("../apps/server/src/runtime.ts").Runtime }) {
  const { hashPassword } = await import("../apps/server/src/modules/auth/passwords.ts");
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.test`;
  const user = await srv.rt.services.users.create({
    email,
    password_hash: await hashPassword("bench password"),
    first_name: "Bench",
    last_name: "",
    email_verified_at: new Date(),
  });
  const workspaceId = await srv.rt.services.workspaces.createFor(user!.id, "Bench");
  const headers = await httpLogin(srv.base, email, "bench password");
  return { workspaceId, headers };
}

const require = createRequire(import.meta.url);
export function has(cmd: string): boolean {
  const { spawnSync } = require("node:child_process") as typeof import("node:child_process");
  return spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;
}
