// Cross-process lock on a data directory, so two Hangar processes never run two servers on one
// cluster. proper-lockfile gives an mtime-refreshed lock directory (stale after 15 s); an owner
// file next to it lets a restart right after a crash (kill -9) take over at once instead of
// waiting for the lock to go stale.
import { readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import lockfile from "proper-lockfile";
import type { PgLogger } from "./embedded-postgres.ts";
import { EmbeddedPostgresError, errorMessage, readProc } from "./embedded-postgres-support.ts";

/** The data directory is in use by a live Hangar process (which the CLI may attach to instead). */
export class DataDirBusyError extends EmbeddedPostgresError {}

interface LockOwner {
  pid: number;
  host: string;
  bootId: string;
  startTicks: number;
}

async function bootId(): Promise<string> {
  return (await readFile("/proc/sys/kernel/random/boot_id", "utf8").catch(() => "")).trim();
}

async function currentOwner(): Promise<LockOwner> {
  const self = await readProc(process.pid);
  return { pid: process.pid, host: os.hostname(), bootId: await bootId(), startTicks: self?.startTicks ?? 0 };
}

async function readOwner(file: string): Promise<LockOwner | null> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as LockOwner;
  } catch {
    return null;
  }
}

/** True only when we can prove the recorded owner is dead (same host; PID gone or reused, or rebooted). */
async function ownerIsDead(owner: LockOwner): Promise<boolean> {
  if (owner.host !== os.hostname() || !owner.bootId) return false;
  if (owner.bootId !== (await bootId())) return true;
  const info = await readProc(owner.pid);
  if (!info) return true;
  return owner.startTicks !== 0 && info.startTicks !== owner.startTicks;
}

/** Acquires the lock `<dataDir>.lock`; resolves to its release function. */
export async function lockDataDir(dataDir: string, log: PgLogger): Promise<() => Promise<void>> {
  const lockfilePath = `${dataDir}.lock`;
  const ownerPath = `${dataDir}.lock-owner`;
  const attempt = () =>
    lockfile.lock(dataDir, {
      lockfilePath,
      realpath: false,
      stale: 15_000,
      update: 5_000,
      retries: 0,
      // The default throws from a timer (crashing the process); a log line is the useful reaction.
      onCompromised: (err) =>
        log.error({ lock: lockfilePath, err: errorMessage(err) }, "data directory lock was compromised"),
    });
  const busy = (owner: LockOwner | null) =>
    new DataDirBusyError(
      `another Hangar process is using ${dataDir}` +
        (owner ? ` (PID ${owner.pid} on ${owner.host})` : "") +
        `; lock ${lockfilePath}`,
    );
  let release: () => Promise<void>;
  try {
    release = await attempt();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ELOCKED") throw err;
    const owner = await readOwner(ownerPath);
    if (!owner || !(await ownerIsDead(owner))) throw busy(owner);
    log.warn({ pid: owner.pid, lock: lockfilePath }, "removing data directory lock left by a Hangar process that died");
    await rm(lockfilePath, { recursive: true, force: true });
    try {
      release = await attempt();
    } catch (err2) {
      if ((err2 as NodeJS.ErrnoException).code === "ELOCKED") throw busy(await readOwner(ownerPath));
      throw err2;
    }
  }
  await writeFile(ownerPath, `${JSON.stringify(await currentOwner())}\n`, { mode: 0o644 });
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await rm(ownerPath, { force: true });
    await release().catch((err) => log.warn({ err: errorMessage(err) }, "could not release data directory lock"));
  };
}
