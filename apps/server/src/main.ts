import path from "node:path";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { buildApp } from "./app.ts";
import type { Config } from "./config.ts";
import { migrateToLatest } from "./db/db.ts";
import { type EmbeddedPostgres, startEmbeddedPostgres, startOrAttachEmbeddedPostgres } from "./db/embedded-postgres.ts";
import { installMetrics } from "./platform/metrics-routes.ts";
import { createRuntime, type Runtime } from "./runtime.ts";
import { ensureDemoAccount, seedDemoContent } from "./seed.ts";

/** "migrate" runs migrations only: no workers, no HTTP. */
export type Role = "all" | "serve" | "work" | "migrate";

/** Starts Hangar: the database (embedded unless DATABASE_URL), migrations, workers and/or HTTP. */
export async function start(config: Config, log: Logger, role: Role = "all", opts: { attach?: boolean } = {}) {
  let embedded: EmbeddedPostgres | null = null;
  if (!config.DATABASE_URL) {
    // CLI commands that only read or change rows (outbox, reset-password) may share the database of
    // a Hangar that is running on the same data directory.
    embedded = await (opts.attach ? startOrAttachEmbeddedPostgres : startEmbeddedPostgres)({
      dataDir: path.join(config.dataDir, "pg"),
      log: log.child({ component: "postgres" }),
    });
  }
  const url = config.DATABASE_URL ?? embedded!.url;
  let rt: Runtime | null = null;
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  let stopping: Promise<void> | null = null;

  let metricsServer: FastifyInstance | null = null;

  // SIGTERM: stop accepting, let in-flight requests and jobs finish within SHUTDOWN_TIMEOUT_SECONDS.
  // A request still running then is cut off; a job still running goes back to the queue when its
  // heartbeat lapses (well under a minute) and runs again elsewhere: nothing is lost.
  const stop = () => {
    stopping ??= (async () => {
      const deadline = Date.now() + config.SHUTDOWN_TIMEOUT_SECONDS * 1000;
      log.info(
        { timeoutSeconds: config.SHUTDOWN_TIMEOUT_SECONDS },
        "stopping: no new requests; finishing what is in flight",
      );
      if (app) {
        const closed = await settleWithin(app.close(), deadline - Date.now());
        if (!closed) {
          log.warn("in-flight requests did not finish in time: closing their connections");
          app.server.closeAllConnections();
        }
      }
      await metricsServer?.close().catch(() => {});
      await rt?.close(Math.max(1000, deadline - Date.now()));
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
    } else if (role === "work" && config.METRICS_PORT !== undefined) {
      // Workers have no API: a small server for Prometheus and liveness probes only.
      metricsServer = Fastify({ loggerInstance: log as FastifyBaseLogger });
      installMetrics(metricsServer, rt.metrics, config.METRICS_TOKEN);
      metricsServer.get("/healthz", async () => ({ status: "ok" }));
      await metricsServer.listen({ host: config.HOST, port: config.METRICS_PORT });
    }
    // Only once everything is up, so a failed start never swallows the printed password.
    const demo = config.DEMO_ACCOUNT && role !== "migrate" ? await ensureDemoAccount(rt) : null;
    // A new demo account gets something to look at; the pipeline processes it in the background.
    if (demo?.password && app && config.DEMO_CONTENT) {
      const runtime = rt;
      seedDemoContent(app, runtime, demo.email, demo.password).catch((err) =>
        runtime.log.warn({ err }, "could not add the demo workspace's sample files"),
      );
    }
    // A second Ctrl-C: skip the draining, but never leave the embedded PostgreSQL running.
    const forceStop = async () => {
      await embedded?.stop();
    };
    return { rt, app, stop, forceStop, demo, databaseUrl: url };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** True when `promise` settled within `ms`; false when the time ran out first. */
async function settleWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  const done = promise.then(
    () => true,
    () => true,
  );
  const result = await Promise.race([done, timeout]);
  clearTimeout(timer);
  return result;
}
