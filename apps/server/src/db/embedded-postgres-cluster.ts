// Cluster lifecycle on disk: the persisted superuser secret, initdb (with a short-lived private
// password file), creating the application database, and dealing with a postmaster.pid left
// behind by a crashed earlier run.
import { randomBytes } from "node:crypto";
import { chmod, chown, mkdtemp, readdir, readFile, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import type { PgLogger } from "./embedded-postgres.ts";
import type { PgBinaries } from "./embedded-postgres-os-user.ts";
import {
  describeExit,
  EmbeddedPostgresError,
  errorMessage,
  pgSpawnOptions,
  type RunAs,
  readProc,
  runCommand,
  waitUntilGone,
} from "./embedded-postgres-support.ts";

export const SUPERUSER = "hangar";

export interface ClusterSecret {
  user: string;
  password: string;
  /** false between "password chosen" and "initdb succeeded": a crash there leaves a partial cluster. */
  initialised: boolean;
}

/** `<dataDir>-secret`, e.g. data/pg-secret: outside the cluster so it survives re-initialisation. */
export function secretPath(dataDir: string): string {
  return `${dataDir}-secret`;
}

export async function readSecret(file: string, log: PgLogger): Promise<ClusterSecret | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  const st = await stat(file);
  if ((st.mode & 0o077) !== 0) {
    await chmod(file, 0o600);
    log.warn({ file }, "secret file was group/world accessible; restricted it to mode 0600");
  }
  const parsed = JSON.parse(text) as Partial<ClusterSecret>;
  if (typeof parsed.user !== "string" || typeof parsed.password !== "string") {
    throw new EmbeddedPostgresError(`secret file ${file} is malformed`);
  }
  return { user: parsed.user, password: parsed.password, initialised: parsed.initialised === true };
}

/** Atomic write with mode 0600 from creation on (never briefly readable by others). */
async function writeSecret(file: string, secret: ClusterSecret): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    await writeFile(tmp, `${JSON.stringify(secret)}\n`, { mode: 0o600, flag: "wx" });
    await chmod(tmp, 0o600); // in case the umask was unusually permissive in odd ways
    await rename(tmp, file);
  } finally {
    await rm(tmp, { force: true });
  }
}

async function runInitdb(bins: PgBinaries, dir: string, runAs: RunAs | null, secret: ClusterSecret): Promise<void> {
  // The password file sits next to the data directory (a place the PostgreSQL user can reach,
  // unlike a private TMPDIR), in its own 0700 directory, and is removed whatever happens.
  const pwDir = await mkdtemp(path.join(path.dirname(dir), ".pg-initdb-"));
  try {
    await chmod(pwDir, 0o700);
    const pwFile = path.join(pwDir, "pwfile");
    await writeFile(pwFile, `${secret.password}\n`, { mode: 0o600, flag: "wx" });
    if (runAs) {
      await chown(pwDir, runAs.uid, runAs.gid);
      await chown(pwFile, runAs.uid, runAs.gid);
    }
    const args = [
      "-D",
      dir,
      "-U",
      secret.user,
      `--pwfile=${pwFile}`,
      "--encoding=UTF8",
      // The builtin provider gives C.UTF-8 semantics without depending on OS locales.
      "--locale-provider=builtin",
      "--builtin-locale=C.UTF-8",
      "--locale=C",
      "--auth-local=scram-sha-256",
      "--auth-host=scram-sha-256",
      "--no-instructions",
    ];
    const res = await runCommand(bins.initdb, args, pgSpawnOptions(runAs), 25);
    if (res.spawnError) {
      throw new EmbeddedPostgresError(`could not run initdb (${bins.initdb}): ${res.spawnError.message}`);
    }
    if (res.code !== 0) {
      throw new EmbeddedPostgresError(
        `initdb failed (${describeExit(res.code, res.signal)}) for ${dir}:\n${res.output.text()}`,
      );
    }
  } finally {
    await rm(pwDir, { recursive: true, force: true });
  }
}

/**
 * Reuses an initialised cluster or creates one. Returns the superuser credentials. The secret
 * is written (initialised:false) before initdb, so the password is never lost, and flipped to
 * initialised:true only afterwards, so a crash mid-initdb is detected and redone next time.
 */
export async function ensureCluster(
  bins: PgBinaries,
  dataDir: string,
  realDir: string,
  runAs: RunAs | null,
  log: PgLogger,
): Promise<{ secret: ClusterSecret; created: boolean }> {
  const file = secretPath(dataDir);
  const existing = await readSecret(file, log);
  const hasCluster = await stat(path.join(realDir, "PG_VERSION")).then(
    () => true,
    () => false,
  );
  if (hasCluster && existing?.initialised) {
    log.info({ dataDir }, "reusing existing cluster");
    return { secret: existing, created: false };
  }
  if (hasCluster && !existing) {
    throw new EmbeddedPostgresError(
      `data directory ${dataDir} holds a cluster but its password file ${file} is missing; ` +
        "restore the file or move the data directory away to start fresh",
    );
  }
  if (hasCluster) {
    // Only reachable when initdb never finished: Hangar never started this cluster, so it holds no data.
    log.warn({ dataDir }, "previous cluster initialisation did not complete; initialising again");
    for (const entry of await readdir(realDir)) await rm(path.join(realDir, entry), { recursive: true, force: true });
  }
  const secret: ClusterSecret = {
    user: SUPERUSER,
    password: randomBytes(24).toString("base64url"),
    initialised: false,
  };
  await writeSecret(file, secret);
  const started = Date.now();
  await runInitdb(bins, realDir, runAs, secret);
  secret.initialised = true;
  await writeSecret(file, secret);
  log.info({ dataDir, ms: Date.now() - started }, "initialised new cluster");
  return { secret, created: true };
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** CREATE DATABASE has no IF NOT EXISTS; check first and tolerate a concurrent creator. */
export async function ensureDatabase(maintenanceUrl: string, database: string, log: PgLogger): Promise<void> {
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [database]);
    if (found.rowCount === 0) {
      try {
        await client.query(`create database ${quoteIdent(database)}`);
        log.info({ database }, "created database");
      } catch (err) {
        if ((err as { code?: string }).code !== "42P04") throw err;
      }
    }
  } finally {
    await client.end();
  }
}

async function servesDir(pid: number, cmdline: string[], dirs: string[]): Promise<boolean> {
  const dIndex = cmdline.indexOf("-D");
  const dArg = dIndex >= 0 ? cmdline[dIndex + 1] : undefined;
  if (dArg && dirs.includes(path.resolve(dArg))) return true;
  // postgres chdir()s into its data directory, so its cwd identifies the cluster exactly.
  const cwd = await realpath(`/proc/${pid}/cwd`).catch(() => null);
  return cwd !== null && dirs.includes(cwd);
}

/**
 * Handles a postmaster.pid found before starting. Must run while holding the Hangar lock, which
 * guarantees that no live Hangar owns a postgres on this directory. Cases:
 * - PID gone: leave the file, postgres replaces a stale lock itself;
 * - zombie: postgres would still see the PID as alive, so wait until it is reaped;
 * - a postgres serving this directory: an orphan of a crashed Hangar, shut it down;
 * - a postgres serving another directory: refuse;
 * - an unrelated process (PID reused, e.g. after a reboot): the file is stale, remove it.
 */
export async function clearStalePostmaster(dataDir: string, realDir: string, log: PgLogger): Promise<void> {
  const pidFile = path.join(realDir, "postmaster.pid");
  const text = await readFile(pidFile, "utf8").catch(() => null);
  if (text === null) return;
  const pid = Number.parseInt(text.split("\n")[0] ?? "", 10);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return;
  const info = await readProc(pid);
  if (!info) {
    log.info({ pid }, "stale postmaster.pid from a process that no longer exists; PostgreSQL will replace it");
    return;
  }
  if (info.state === "Z") {
    log.info({ pid }, "previous postmaster has exited but is not reaped yet; waiting");
    if (!(await waitUntilGone(pid, 10_000))) {
      throw new EmbeddedPostgresError(`previous postmaster (PID ${pid}) of ${dataDir} stayed a zombie for 10 s`);
    }
    return;
  }
  const isPostgres = info.comm === "postgres" || path.basename(info.cmdline[0] ?? "") === "postgres";
  const dirs = [path.resolve(dataDir), path.resolve(realDir), await realpath(realDir).catch(() => realDir)];
  if (isPostgres && (await servesDir(pid, info.cmdline, dirs))) {
    log.warn(
      { pid, dataDir },
      "found orphaned PostgreSQL from an earlier Hangar run on this data directory; stopping it",
    );
    try {
      process.kill(pid, "SIGINT"); // fast shutdown: rolls back open transactions, checkpoints, exits
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ESRCH") {
        throw new EmbeddedPostgresError(
          `cannot stop orphaned PostgreSQL (PID ${pid}) serving ${dataDir}: ${errorMessage(err)}`,
        );
      }
    }
    if (!(await waitUntilGone(pid, 15_000))) {
      log.warn({ pid }, "orphaned PostgreSQL did not stop within 15 s; killing it");
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
      if (!(await waitUntilGone(pid, 10_000))) {
        throw new EmbeddedPostgresError(`could not stop orphaned PostgreSQL (PID ${pid}) serving ${dataDir}`);
      }
    }
    log.info({ pid }, "orphaned PostgreSQL stopped");
    return;
  }
  if (isPostgres) {
    throw new EmbeddedPostgresError(
      `${pidFile} names PID ${pid}, a running PostgreSQL that is not serving ${dataDir}; refusing to start. ` +
        "Stop that server or remove the file if you are sure it is stale.",
    );
  }
  log.warn(
    { pid, process: info.comm },
    "postmaster.pid names a PID now used by an unrelated process (PID reuse); removing the stale file",
  );
  await rm(pidFile, { force: true });
}
