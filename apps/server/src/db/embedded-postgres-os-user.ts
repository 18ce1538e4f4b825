// Everything needed because PostgreSQL refuses to run as root: choosing (or creating) an
// unprivileged OS user, and making sure that user can reach the binaries and the data
// directory without ever loosening permissions on the operator's own directories.
import { createHash } from "node:crypto";
import {
  chmod,
  chown,
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import path from "node:path";
import type { PgLogger } from "./embedded-postgres.ts";
import { EmbeddedPostgresError, pgSpawnOptions, type RunAs, runCommand } from "./embedded-postgres-support.ts";

export const DEFAULT_BINARY_CACHE_ROOT = "/var/cache/hangar";
export const DEFAULT_RELOCATED_DATA_ROOT = "/var/lib/hangar";
const CREATED_USER = "hangar-pg";
const COMPLETE_MARKER = ".hangar-complete";

export interface PgBinaries {
  initdb: string;
  postgres: string;
}

async function getentPasswd(name: string): Promise<RunAs | null> {
  const res = await runCommand("getent", ["passwd", name], pgSpawnOptions(null));
  if (res.code !== 0) return null;
  const fields = res.output.text().split("\n")[0]?.split(":") ?? [];
  const uid = Number(fields[2]);
  const gid = Number(fields[3]);
  if (!Number.isInteger(uid) || !Number.isInteger(gid) || uid === 0) return null;
  return { name, uid, gid };
}

/**
 * Returns null when not running as root (PostgreSQL then simply runs as the current user).
 * As root, prefers an existing `postgres` account (distribution convention), otherwise a
 * dedicated `hangar-pg` system user, created on first use.
 */
export async function resolveRunAs(log: PgLogger): Promise<RunAs | null> {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return null;
  for (const name of ["postgres", CREATED_USER]) {
    const found = await getentPasswd(name);
    if (found) {
      log.info({ user: found.name, uid: found.uid }, "running as root: PostgreSQL will run as existing OS user");
      return found;
    }
  }
  const opts = pgSpawnOptions(null);
  if ((await runCommand("getent", ["group", CREATED_USER], opts)).code !== 0) {
    const res = await runCommand("groupadd", ["--system", CREATED_USER], opts);
    // Exit 9 = already exists (a concurrent Hangar won the race); anything else is fatal.
    if (res.code !== 0 && res.code !== 9) {
      throw new EmbeddedPostgresError(`could not create group ${CREATED_USER} (groupadd: ${res.output.text()})`);
    }
  }
  const res = await runCommand(
    "useradd",
    ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "--gid", CREATED_USER, CREATED_USER],
    opts,
  );
  const created = await getentPasswd(CREATED_USER);
  if (!created) {
    const reason = res.spawnError?.message ?? res.output.text();
    throw new EmbeddedPostgresError(
      `PostgreSQL cannot run as root and no unprivileged user is available; creating system user ${CREATED_USER} failed: ${reason}`,
    );
  }
  log.info({ user: created.name, uid: created.uid }, "running as root: created system user for PostgreSQL");
  return created;
}

/** Evaluates `test <expr>` as the given user: the only exact answer to "can that user reach it". */
export async function canAccessAs(runAs: RunAs, testExpr: string[]): Promise<boolean> {
  const res = await runCommand("test", testExpr, pgSpawnOptions(runAs));
  return res.code === 0;
}

function binariesReachableExpr(bins: PgBinaries): string[] {
  const share = path.join(path.dirname(path.dirname(bins.postgres)), "share", "postgresql", "postgres.bki");
  return ["-x", bins.postgres, "-a", "-x", bins.initdb, "-a", "-r", share];
}

/** Copies a directory tree keeping symlinks verbatim (they are relative) and file modes. */
async function copyTree(src: string, dst: string): Promise<void> {
  const srcStat = await stat(src);
  await mkdir(dst, { recursive: true });
  for (const entry of await readdir(src, { withFileTypes: true })) {
    const from = path.join(src, entry.name);
    const to = path.join(dst, entry.name);
    if (entry.isSymbolicLink()) {
      await symlink(await readlink(from), to);
    } else if (entry.isDirectory()) {
      await copyTree(from, to);
    } else if (entry.isFile()) {
      await copyFile(from, to);
      await chmod(to, (await lstat(from)).mode & 0o7777);
    }
  }
  // After the contents, so that a read-only source directory mode cannot block the copy.
  await chmod(dst, srcStat.mode & 0o7777);
}

async function packageVersion(nativeDir: string): Promise<string> {
  try {
    const pkg = JSON.parse(await readFile(path.join(nativeDir, "..", "package.json"), "utf8")) as { version?: string };
    return pkg.version ?? "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * When the checkout lives somewhere the PostgreSQL user cannot enter (e.g. /root), copy the
 * whole native/ tree (bin, lib, share: postgres finds lib and share relative to itself) to a
 * world-readable cache. Written to a temp dir and renamed, so a crash never leaves a half copy
 * that later runs would trust.
 */
export async function ensureReachableBinaries(
  bins: PgBinaries,
  runAs: RunAs | null,
  log: PgLogger,
  cacheRoot = DEFAULT_BINARY_CACHE_ROOT,
): Promise<PgBinaries> {
  if (!runAs) return bins;
  if (await canAccessAs(runAs, binariesReachableExpr(bins))) return bins;
  const nativeDir = path.dirname(path.dirname(bins.postgres));
  const version = await packageVersion(nativeDir);
  const size = (await stat(bins.postgres)).size;
  const hash = createHash("sha256").update(`${process.platform}-${process.arch}:${version}:${size}`).digest("hex");
  const target = path.join(cacheRoot, `pg-${version.replace(/[^\w.-]/g, "_")}-${hash.slice(0, 12)}`);
  const cached: PgBinaries = {
    initdb: path.join(target, path.relative(nativeDir, bins.initdb)),
    postgres: path.join(target, path.relative(nativeDir, bins.postgres)),
  };
  const complete = await stat(path.join(target, COMPLETE_MARKER)).then(
    () => true,
    () => false,
  );
  if (complete) {
    log.info({ user: runAs.name, cache: target }, "PostgreSQL binaries not reachable by OS user; using cached copy");
  } else {
    await mkdir(cacheRoot, { recursive: true, mode: 0o755 });
    const tmp = await mkdtemp(path.join(cacheRoot, ".tmp-pg-"));
    try {
      await copyTree(nativeDir, tmp);
      await writeFile(path.join(tmp, COMPLETE_MARKER), `${version}\n`, { mode: 0o644 });
      await rm(target, { recursive: true, force: true }); // an incomplete leftover, if any
      await rename(tmp, target);
      log.info(
        { user: runAs.name, from: nativeDir, cache: target },
        "PostgreSQL binaries not reachable by OS user; copied them to a readable cache",
      );
    } catch (err) {
      await rm(tmp, { recursive: true, force: true });
      // A concurrent Hangar may have completed the same copy first; that is fine.
      const raced = await stat(path.join(target, COMPLETE_MARKER)).then(
        () => true,
        () => false,
      );
      if (!raced) throw err;
    }
  }
  if (!(await canAccessAs(runAs, binariesReachableExpr(cached)))) {
    throw new EmbeddedPostgresError(
      `OS user ${runAs.name} cannot execute the PostgreSQL binaries at ${bins.postgres} nor the cached copy in ${target}`,
    );
  }
  return cached;
}

async function chownTree(p: string, runAs: RunAs): Promise<void> {
  const st = await lstat(p);
  if (st.isDirectory()) {
    for (const entry of await readdir(p)) await chownTree(path.join(p, entry), runAs);
  }
  if (!st.isSymbolicLink()) await chown(p, runAs.uid, runAs.gid);
}

/** PostgreSQL insists that its data directory is owned by it and not group/world accessible. */
async function ensureOwnedDataDir(dir: string, runAs: RunAs, log: PgLogger): Promise<void> {
  const st = await stat(dir);
  if (st.uid !== runAs.uid || st.gid !== runAs.gid) {
    await chownTree(dir, runAs);
    if ((await readdir(dir)).length > 0) {
      log.info({ dir, user: runAs.name }, "changed ownership of existing data directory to PostgreSQL user");
    }
  }
  if ((st.mode & 0o027) !== 0) await chmod(dir, 0o700);
}

export function relocatedDataDir(dataDir: string, root = DEFAULT_RELOCATED_DATA_ROOT): string {
  const hash = createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 16);
  return path.join(root, `pg-${hash}`);
}

/**
 * Creates the data directory and returns the real path PostgreSQL should use. As root, if the
 * PostgreSQL user cannot reach the configured location, the cluster lives under
 * /var/lib/hangar and the configured path becomes a symlink to it: we never chmod the
 * operator's home or any other ancestor.
 */
export async function prepareDataDir(
  dataDir: string,
  runAs: RunAs | null,
  log: PgLogger,
  relocateRoot = DEFAULT_RELOCATED_DATA_ROOT,
): Promise<string> {
  const parent = path.dirname(dataDir);
  await mkdir(parent, { recursive: true });
  if (!runAs) {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    return dataDir;
  }
  const existing = await lstat(dataDir).catch(() => null);
  if (existing?.isSymbolicLink()) {
    const target = path.resolve(parent, await readlink(dataDir));
    const made = await mkdir(target, { recursive: true, mode: 0o700 });
    if (made) log.warn({ dataDir, target }, "data directory symlink pointed nowhere; created an empty target");
    await ensureOwnedDataDir(target, runAs, log);
    if (!(await canAccessAs(runAs, ["-w", target, "-a", "-x", target]))) {
      throw new EmbeddedPostgresError(`${dataDir} links to ${target}, which OS user ${runAs.name} cannot use`);
    }
    return target;
  }
  if (await canAccessAs(runAs, ["-x", parent])) {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await ensureOwnedDataDir(dataDir, runAs, log);
    return dataDir;
  }
  if (existing) {
    const entries = await readdir(dataDir);
    if (entries.length > 0) {
      throw new EmbeddedPostgresError(
        `data directory ${dataDir} is not reachable by OS user ${runAs.name} (an ancestor directory is private) ` +
          `and already contains files; move it to a reachable place or run Hangar as a non-root user`,
      );
    }
    await rm(dataDir, { recursive: true });
  }
  const target = relocatedDataDir(dataDir, relocateRoot);
  const madeRoot = await mkdir(relocateRoot, { recursive: true });
  if (madeRoot) await chmod(relocateRoot, 0o755);
  await mkdir(target, { recursive: true, mode: 0o700 });
  await ensureOwnedDataDir(target, runAs, log);
  await symlink(target, dataDir);
  log.warn(
    { dataDir, target, user: runAs.name },
    "data directory is not reachable by the PostgreSQL user (private ancestor directory); " +
      "the cluster is kept in the target directory and dataDir is a symlink to it",
  );
  return target;
}
