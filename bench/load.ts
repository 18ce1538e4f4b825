// bench/load: a Hangar API process and a worker process on 1,000,000 assets, under 50
// concurrent uploaders + 10 board-zip downloaders + 100 listing clients for DURATION seconds (loopback
// only, bounded). Prints requests/s and p50/p95/p99 per kind, the 5xx count, the server's peak RSS
// and its event-loop lag (p99 over the run, from its own /metrics). Goal: 0 5xx, lag p99 < 100 ms.
// Run: BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/load.ts
// The million assets are bench/listing's kept database (hangar_bench_listing); when it is missing,
// bench/listing is run once with BENCH_REUSE=1 to seed it.
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { pino } from "pino";
import sharp from "sharp";
import { loadConfig } from "../apps/server/src/config.ts";
import { hashPassword } from "../apps/server/src/modules/auth/passwords.ts";
import { createRuntime } from "../apps/server/src/runtime.ts";
import { freePort, httpLogin, spawnHangar } from "../apps/server/test/processes.ts";
import { LISTING_CASES } from "./listing-cases.ts";

const DURATION = Number(process.env.DURATION ?? 60) * 1000;
const UPLOADERS = 50;
const ZIPPERS = 10;
const LISTERS = 100;
/** The event-loop monitor's resolution in the server (platform/metrics.ts). */
const LAG_RESOLUTION_MS = 10;
const admin = process.env.BENCH_DATABASE_URL;
if (!admin) throw new Error("bench/load needs BENCH_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)");
const dbUrl = new URL(admin);
dbUrl.pathname = "/hangar_bench_listing";

async function seededWorkspace(): Promise<string | null> {
  const c = new pg.Client({ connectionString: dbUrl.toString() });
  try {
    await c.connect();
    const r = await c.query("SELECT workspace_id FROM assets GROUP BY 1 HAVING count(*) >= 1000000 LIMIT 1");
    return (r.rows[0]?.workspace_id as string | undefined) ?? null;
  } catch {
    return null;
  } finally {
    await c.end().catch(() => {});
  }
}

let workspaceId = await seededWorkspace();
if (!workspaceId) {
  console.log("seeding 1,000,000 assets through bench/listing (BENCH_REUSE=1) …");
  spawnSync("npx", ["tsx", "bench/listing.ts"], {
    stdio: "inherit",
    env: { ...process.env, BENCH_REUSE: "1", RUNS: "1" },
  });
  workspaceId = await seededWorkspace();
  if (!workspaceId) throw new Error("seeding failed");
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-load-"));
const env = { DATABASE_URL: dbUrl.toString(), DATA_DIR: dataDir, LOG_LEVEL: "warn", NODE_ENV: "production" };
const rt = createRuntime(
  loadConfig({ ...env, DEMO_ACCOUNT: "0", AI_TAGS: "0" }),
  dbUrl.toString(),
  pino({ level: "silent" }),
);
const email = `load-${Date.now()}@example.test`;
const user = await rt.services.users.create({
  email,
  password_hash: await hashPassword("load password"),
  first_name: "Load",
  last_name: "",
  email_verified_at: new Date(),
});
await rt.db.insertInto("memberships").values({ workspace_id: workspaceId, user_id: user!.id, role: "ADMIN" }).execute();

// The many-machines shape on one machine: an API process and a worker process (the API's event loop
// never runs pipeline code). Both share the 2 cores with PostgreSQL and this load generator.
const server = spawnHangar("serve", { ...env, AI_TAGS: "0" }, await freePort());
const worker = spawnHangar("work", { ...env, AI_TAGS: "0" });
const lat: Record<string, number[]> = { upload: [], listing: [], zip: [], "zip first byte": [] };
const codes: Record<string, Record<string, number>> = { upload: {}, listing: {}, zip: {} };
let peakRss = 0;
let lagP99 = 0;
let lagMax = 0;
try {
  await Promise.all([server.waitReady(60_000), worker.waitForOutput(/workers are running/, 60_000)]);
  const headers = await httpLogin(server.base, email, "load password");
  const api = (p: string, body?: unknown) =>
    fetch(`${server.base}/api/v1${p}`, {
      method: body === undefined ? "GET" : "POST",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const count = (kind: string, status: number | string) => {
    codes[kind]![String(status)] = (codes[kind]![String(status)] ?? 0) + 1;
  };

  // A few real pictures to upload (distinct bytes each time: one byte of the comment changes).
  const pictures = await Promise.all(
    [0, 1, 2, 3, 4].map((i) =>
      sharp({
        create: { width: 1600, height: 1200, channels: 3, noise: { type: "gaussian", mean: 100 + i * 20, sigma: 30 } },
      })
        .jpeg({ quality: 80 })
        .toBuffer(),
    ),
  );
  const upload = async (name: string, bytes: Buffer, boardId?: string) => {
    const init = await api(`/workspaces/${workspaceId}/assets/upload`, {
      name,
      size: bytes.length,
      board_id: boardId ?? null,
    });
    if (init.status !== 200) return init.status;
    const a = (await init.json()) as { direct_url: string; asset_id: string };
    const put = await fetch(`${server.base}${a.direct_url}`, { method: "PUT", body: new Uint8Array(bytes) });
    await put.arrayBuffer();
    return put.status;
  };

  // The board the zip clients download: 30 real pictures.
  const board = (await (await api(`/workspaces/${workspaceId}/boards`, { name: `Load zip ${Date.now()}` })).json()) as {
    id: string;
  };
  for (let i = 0; i < 30; i++) await upload(`zip-${i}.jpg`, pictures[i % 5]!, board.id);

  await fetch(`${server.base}/metrics`).then((r) => r.text()); // resets the lag histogram
  const until = Date.now() + DURATION;
  const rssTimer = setInterval(async () => {
    const status = await readFile(`/proc/${server.proc.pid}/status`, "utf8").catch(() => "");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    peakRss = Math.max(peakRss, kb * 1024);
  }, 250);

  const timed = async (kind: string, fn: () => Promise<number>) => {
    const t = performance.now();
    let status: number | string;
    try {
      status = await fn();
    } catch (err) {
      status = `error ${(err as Error).message.slice(0, 40)}`;
    }
    lat[kind]!.push(performance.now() - t);
    count(kind, status);
  };
  let n = 0;
  const uploader = async () => {
    while (Date.now() < until) {
      const bytes = Buffer.from(pictures[n % 5]!);
      bytes[bytes.length - 3] = n++ % 256;
      await timed("upload", () => upload(`load-${n}.jpg`, bytes));
    }
  };
  const lister = async () => {
    while (Date.now() < until) {
      const [, input] = LISTING_CASES[Math.floor(Math.random() * 11)]!;
      const body = { ...input, page: 1 + Math.floor(Math.random() * 20), page_size: 20 };
      await timed("listing", async () => {
        const r = await api(`/workspaces/${workspaceId}/assets`, body);
        await r.arrayBuffer();
        return r.status;
      });
    }
  };
  const zipper = async () => {
    while (Date.now() < until) {
      await timed("zip", async () => {
        const r = await api(`/workspaces/${workspaceId}/download`, { board_ids: [board.id] });
        if (r.status !== 200) return r.status;
        const { download_url } = (await r.json()) as { download_url: string };
        const t = performance.now();
        const z = await fetch(new URL(download_url, server.base));
        const reader = z.body!.getReader();
        let first = true;
        for (;;) {
          const { done } = await reader.read();
          if (first) {
            lat["zip first byte"]!.push(performance.now() - t);
            first = false;
          }
          if (done) break;
        }
        return z.status;
      });
    }
  };
  const t0 = performance.now();
  await Promise.all([
    ...Array.from({ length: UPLOADERS }, uploader),
    ...Array.from({ length: ZIPPERS }, zipper),
    ...Array.from({ length: LISTERS }, lister),
  ]);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(rssTimer);
  const metrics = await (await fetch(`${server.base}/metrics`)).text();
  // prom-client records the timer's delay including its own resolution: lag = delay − resolution.
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(metrics)?.[1] ?? Number.NaN) * 1000;
  lagP99 = Math.max(0, gauge("nodejs_eventloop_lag_p99_seconds") - LAG_RESOLUTION_MS);
  lagMax = Math.max(0, gauge("nodejs_eventloop_lag_max_seconds") - LAG_RESOLUTION_MS);
  const q = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))]! : 0;
  };
  const fivexx = Object.values(codes).reduce(
    (sum, c) =>
      sum +
      Object.entries(c)
        .filter(([k]) => k.startsWith("5"))
        .reduce((s, [, v]) => s + v, 0),
    0,
  );
  console.log(
    `bench/load: 1,000,000 assets, ${UPLOADERS} uploaders + ${ZIPPERS} zip + ${LISTERS} listing clients, ${seconds.toFixed(0)} s, \`hangar serve\` + \`hangar work\`, load ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  console.log(
    `  ${"kind".padEnd(16)} ${"req/s".padStart(7)} ${"p50".padStart(8)} ${"p95".padStart(8)} ${"p99".padStart(8)}  answers`,
  );
  for (const kind of Object.keys(lat)) {
    const xs = lat[kind]!;
    console.log(
      `  ${kind.padEnd(16)} ${(xs.length / seconds).toFixed(1).padStart(7)} ${q(xs, 0.5).toFixed(0).padStart(6)}ms ${q(xs, 0.95).toFixed(0).padStart(6)}ms ${q(xs, 0.99).toFixed(0).padStart(6)}ms  ${JSON.stringify(codes[kind] ?? {})}`,
    );
  }
  console.log(`  5xx: ${fivexx} (goal 0)`);
  console.log(`  event-loop lag p99 ${lagP99.toFixed(1)} ms, max ${lagMax.toFixed(1)} ms (goal p99 < 100 ms)`);
  console.log(`  API process peak RSS ${(peakRss / 1024 ** 2).toFixed(0)} MB`);
} finally {
  server.proc.kill("SIGTERM");
  worker.proc.kill("SIGTERM");
  await Promise.all([server.exited, worker.exited]);
  // Leave the million assets as they were: this run's uploads, board and user go.
  const recent = new Date(Date.now() - 2 * 3600_000);
  await rt.db
    .deleteFrom("assets")
    .where("workspace_id", "=", workspaceId)
    .where("date_uploaded", ">", recent)
    .where((eb) => eb.or([eb("name", "like", "load-%"), eb("name", "like", "zip-%")]))
    .execute()
    .catch(() => {});
  await rt.db
    .deleteFrom("boards")
    .where("workspace_id", "=", workspaceId)
    .where("name", "like", "Load zip %")
    .execute()
    .catch(() => {});
  await rt.db
    .deleteFrom("users")
    .where("id", "=", user!.id)
    .execute()
    .catch(() => {});
  await rt.close();
  await rm(dataDir, { recursive: true, force: true });
}
