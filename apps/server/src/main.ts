import path from "node:path";
import type { Logger } from "pino";
import { buildApp } from "./app.ts";
import type { Config } from "./config.ts";
import { migrateToLatest } from "./db/db.ts";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "./db/embedded-postgres.ts";
import { createRuntime, type Runtime } from "./runtime.ts";
import { ensureDemoAccount } from "./seed.ts";

/** "migrate" runs migrations only: no workers, no HTTP. */
export type Role = "all" | "serve" | "work" | "migrate";

/** Starts Hangar: the database (embedded unless DATABASE_URL), migrations, workers and/or HTTP. */
export async function start(config: Config, log: Logger, role: Role = "all") {
  let embedded: EmbeddedPostgres | null = null;
  if (!config.DATABASE_URL) {
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(config.dataDir, "pg"),
      log: log.child({ component: "postgres" }),
    });
  }
  const url = config.DATABASE_URL ?? embedded!.url;
  let rt: Runtime | null = null;
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  let stopping: Promise<void> | null = null;

  const stop = () => {
    stopping ??= (async () => {
      log.info("stopping: no new requests; finishing what is in flight");
      await app?.close().catch((err) => log.warn({ err }, "http close failed"));
      await rt?.close();
      await embedded?.stop();
      log.info("stopped");
    })();
    return stopping;
  };

  try {
    rt = createRuntime(config, url, log);
    const applied = await migrateToLatest(rt.db);
    if (applied.length) log.info({ applied }, "migrations applied");
    if (role !== "migrate") {
      await rt.jobs.start(rt.jobDefinitions, { work: role !== "serve", concurrency: config.WORKER_CONCURRENCY });
    }
    if (role === "all" || role === "serve") {
      app = await buildApp(rt, { serveWeb: true });
      await app.listen({ host: config.HOST, port: config.PORT });
    }
    // Only once everything is up, so a failed start never swallows the printed password.
    const demo = config.DEMO_ACCOUNT && role !== "migrate" ? await ensureDemoAccount(rt) : null;
    return { rt, app, stop, demo, databaseUrl: url };
  } catch (err) {
    await stop();
    throw err;
  }
}
