import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { testPatternVideo } from "../../test/fixtures.ts";
import { createTestEnv, type TestEnv, uploadBytes, workspaceWith } from "../../test/harness.ts";

/**
 * `kill -9` of a worker in the middle of processing: the job's heartbeat stops, pg-boss hands it to
 * the next worker, and the asset still reaches COMPLETED — within the lease, never hours later.
 */
let env: TestEnv;
const children: ChildProcess[] = [];
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0" }, { work: false });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  await env.close();
});

function startWorker(): ChildProcess {
  const root = path.resolve(import.meta.dirname, "../../../..");
  const child = spawn(process.execPath, ["apps/server/bin/hangar.mjs", "work"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      DATABASE_URL: inject("databaseUrl"),
      DATA_DIR: env.rt.config.dataDir,
      JOBS_SCHEMA: env.rt.config.JOBS_SCHEMA,
      DEMO_ACCOUNT: "0",
      AI_TAGS: "0",
      LOG_LEVEL: "error",
    },
  });
  children.push(child);
  return child;
}

const row = (id: string) =>
  env.rt.db
    .selectFrom("assets")
    .select(["status", "processing_attempts", "duration"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it("a killed worker's asset is finished by the next worker within the lease", { timeout: 180_000 }, async () => {
  // A video long enough that the transcode is still running when the worker dies.
  const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-crash-"));
  const file = path.join(dir, "long.mp4");
  await testPatternVideo(file, "testsrc2=size=1920x1080:rate=30:duration=20");
  const { ws, admin } = await workspaceWith(env);
  const assetId = await uploadBytes(admin.client, ws.id, "long.mp4", await readFile(file));
  await rm(dir, { recursive: true, force: true });
  expect((await row(assetId)).status).toBe("processing");

  const first = startWorker();
  await until("the first worker to take the job", async () => (await row(assetId)).processing_attempts >= 1, 60_000);
  expect((await row(assetId)).status).toBe("processing");
  process.kill(-first.pid!, "SIGKILL");
  await once(first, "exit");

  const killedAt = Date.now();
  startWorker();
  const done = await until(
    "the asset to complete",
    async () => {
      const r = await row(assetId);
      return r.status === "COMPLETED" || r.status === "error" ? r : null;
    },
    120_000,
  );
  expect(done.status).toBe("COMPLETED");
  expect(done.processing_attempts).toBeGreaterThanOrEqual(2);
  expect(done.duration).toBeGreaterThan(19);
  // Well under a minute of lease on top of the work itself.
  expect(Date.now() - killedAt).toBeLessThan(90_000);
});
