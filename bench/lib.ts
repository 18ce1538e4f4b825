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

/** Uploads files over real HTTP as the web upload dialog does (`inFlight` at once); answers the asset ids in file order. */
export async function benchUpload(
  srv: { base: string },
  workspaceId: string,
  headers: Record<string, string>,
  files: string[],
  inFlight = 3,
): Promise<string[]> {
  const { readFile } = await import("node:fs/promises");
  const ids: string[] = new Array(files.length);
  const uploadOne = async (i: number) => {
    const f = files[i]!;
    const data = await readFile(f);
    const init = (await (
      await fetch(`${srv.base}/api/v1/workspaces/${workspaceId}/assets/upload`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: path.basename(f), size: data.length }),
      })
    ).json()) as {
      asset_id: string;
      parts?: Array<{ url: string; start_byte: number; end_byte: number; part_number: number }>;
      upload_id: string;
      key: string;
      direct_url?: string;
    };
    if (init.direct_url) await fetch(`${srv.base}${init.direct_url}`, { method: "PUT", body: data });
    else {
      const parts = [];
      for (const p of init.parts ?? []) {
        const r = await fetch(`${srv.base}${p.url}`, {
          method: "PUT",
          body: data.subarray(p.start_byte, p.end_byte + 1),
        });
        parts.push({ part_number: p.part_number, etag: r.headers.get("etag") });
      }
      await fetch(`${srv.base}/api/v1/workspaces/${workspaceId}/assets/upload/complete`, {
        method: "POST",
        headers,
        body: JSON.stringify({ upload_id: init.upload_id, key: init.key, parts }),
      });
    }
    ids[i] = init.asset_id;
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < files.length) await uploadOne(next++);
    }),
  );
  return ids;
}

/** Waits until none of `ids` is uploading or processing; answers how many ended in error. */
export async function waitProcessed(srv: { rt: import("../apps/server/src/runtime.ts").Runtime }, ids: string[]) {
  for (;;) {
    const rows = await srv.rt.db.selectFrom("assets").select(["status"]).where("id", "in", ids).execute();
    if (!rows.some((r) => r.status === "processing" || r.status === "uploading"))
      return rows.filter((r) => r.status === "error").length;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Resident memory of a process and all its descendants (Linux /proc), in bytes: workers plus the ffmpeg,
 * LibreOffice or PDFium children they run. */
export async function treeRss(rootPid = process.pid): Promise<number> {
  // Synchronous reads: this samples every 200 ms beside the work it measures, and 110 async reads
  // through the thread pool cost 23 ms of CPU a sample (a tenth of a core taken from the server).
  const { readdirSync, readFileSync } = await import("node:fs");
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, "latin1");
      // The database is not the workers' memory (and its shared buffers would be counted once per backend).
      if (/^Name:\s+postgres/m.test(status)) continue;
      parent.set(pid, Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0));
      rss.set(pid, Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) * 1024);
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) if (p === rootPid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, bytes] of rss) if (inTree(pid)) total += bytes;
  return total;
}

/** Runs `work` over `items` with `parallel` at once; answers the seconds it took. */
export async function pool<T>(items: T[], parallel: number, work: (item: T, i: number) => Promise<void>) {
  const t = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
  return (performance.now() - t) / 1000;
}

/** Runs a command to completion; rejects on a non-zero exit. */
export async function run(bin: string, args: string[]): Promise<void> {
  const { spawn } = await import("node:child_process");
  await new Promise<void>((resolve, reject) => {
    const p = spawn(bin, args, { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    p.stderr.on("data", (d: Buffer) => {
      err = (err + d.toString()).slice(-2000);
    });
    p.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${bin} exited ${code}: ${err}`))));
    p.on("error", reject);
  });
}
