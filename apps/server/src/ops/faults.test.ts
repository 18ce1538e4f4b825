import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterAll, describe, expect, it, vi } from "vitest";
import { type Client, createTestEnv, type TestEnv, waitForAsset, workspaceWith } from "../../test/harness.ts";
import { freePort } from "../../test/processes.ts";
import { migrateToLatest } from "../db/db.ts";
import { startEmbeddedPostgres } from "../db/embedded-postgres.ts";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

describe("PostgreSQL restarted under load", () => {
  it("answers 503 (never 500) while the database is down and recovers without a restart", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-pg-restart-"));
    await chmod(dir, 0o755);
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const log = pino({ level: "silent" });
    const port = await freePort();
    let pg = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), log, port });
    cleanups.push(() => pg.stop());
    const env: TestEnv = await createTestEnv({ DATABASE_URL: pg.url, AI_TAGS: "0" }, { work: false });
    cleanups.push(() => env.close());
    await migrateToLatest(env.rt.db);
    const { ws, admin } = await workspaceWith(env);

    let phase: "up" | "down" | "back" = "up";
    const seen: Record<string, Record<number, number>> = { up: {}, down: {}, back: {} };
    let running = true;
    const load = async (client: Client) => {
      while (running) {
        const p = phase;
        const r = await client.post(`/workspaces/${ws.id}/assets`, { page: 1, page_size: 10 });
        seen[p]![r.statusCode] = (seen[p]![r.statusCode] ?? 0) + 1;
        if (r.statusCode === 500) throw new Error(`500 during ${p}: ${r.body}`);
        if (r.statusCode === 503) {
          expect(r.json()).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
          expect(r.headers["retry-after"]).toBeDefined();
        }
        await new Promise((res) => setTimeout(res, 5));
      }
    };
    const ready = () => env.app.inject({ method: "GET", url: "/readyz" });
    const loops = Array.from({ length: 8 }, () => load(admin.client));

    // Conditions, not sleeps: the load is being answered, then it meets the outage.
    await vi.waitFor(() => expect(seen.up?.[200] ?? 0).toBeGreaterThanOrEqual(5), { timeout: 20_000, interval: 20 });
    phase = "down";
    await pg.stop();
    await vi.waitFor(() => expect(seen.down?.[503] ?? 0).toBeGreaterThan(0), { timeout: 20_000, interval: 20 });
    expect((await ready()).statusCode).toBe(503);
    pg = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), log, port });
    phase = "back";
    const until = Date.now() + 20_000;
    while ((seen.back![200] ?? 0) < 20) {
      if (Date.now() > until) throw new Error(`no recovery: ${JSON.stringify(seen)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    running = false;
    await Promise.all(loops);
    expect((await ready()).statusCode).toBe(200);

    expect(seen.up![200]).toBeGreaterThan(0);
    expect(seen.down![503], JSON.stringify(seen)).toBeGreaterThan(0);
    // Only 200 and 503 in every phase: no 500, no hang.
    for (const p of Object.values(seen)) for (const code of Object.keys(p)) expect(["200", "503"]).toContain(code);
  }, 90_000);
});

/** Mounts a small tmpfs (root only). CI runs as root and sets FAULTS_REQUIRED=1, so there it must work. */
async function smallVolume(megabytes: number): Promise<string | null> {
  const mnt = await mkdtemp(path.join(os.tmpdir(), "hangar-full-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m,mode=0755`, "tmpfs", mnt], { stdio: "pipe" });
  } catch (err) {
    await rm(mnt, { recursive: true, force: true });
    if (process.env.FAULTS_REQUIRED === "1") throw err;
    return null;
  }
  cleanups.push(async () => {
    execFileSync("umount", ["-l", mnt]);
    await rm(mnt, { recursive: true, force: true });
  });
  return mnt;
}

describe("disk full during an upload", async () => {
  const volume = await smallVolume(24);
  if (!volume) console.warn("disk-full test skipped: mounting a tmpfs needs root (CI sets FAULTS_REQUIRED=1)");

  it.runIf(volume !== null)(
    "fails cleanly with 507, keeps nothing half-written, and works again once space is freed",
    async () => {
      const dataDir = path.join(volume!, "data");
      await mkdir(dataDir);
      const env = await createTestEnv({ DATA_DIR: dataDir, AI_TAGS: "0" });
      cleanups.push(() => env.close());
      const { ws, admin } = await workspaceWith(env);
      const filler = path.join(volume!, "filler.bin");
      await writeFile(filler, randomBytes(17 * 1024 * 1024));

      // Multipart, two parts.
      const data = randomBytes(9 * 1024 * 1024);
      const init = (
        await admin.client.post(`/workspaces/${ws.id}/assets/upload`, { name: "big.bin", size: data.length })
      ).json();
      const slice = (p: { start_byte: number; end_byte: number }) => data.subarray(p.start_byte, p.end_byte + 1);
      const put = (url: string, bytes: Buffer) =>
        env.app.inject({ method: "PUT", url, payload: bytes, headers: { "content-type": "application/octet-stream" } });
      // Part 2 (1 MiB) still fits; part 1 (8 MiB) does not.
      const second = await put(init.parts[1].url, slice(init.parts[1]));
      expect(second.statusCode).toBe(200);
      const e2 = second.headers.etag as string;
      const full = await put(init.parts[0].url, slice(init.parts[0]));
      expect(full.statusCode).toBe(507);
      expect(full.json()).toMatchObject({
        code: "STORAGE_FULL",
        detail: expect.stringMatching(/out of storage space/),
      });
      // The failed part is not recorded: complete refuses it, and the asset stays uploading.
      const early = await admin.client.post(`/workspaces/${ws.id}/assets/upload/complete`, {
        upload_id: init.upload_id,
        key: init.key,
        parts: [
          { part_number: 1, etag: '"whatever"' },
          { part_number: 2, etag: e2 },
        ],
      });
      expect(early.statusCode).toBe(422);
      expect((await admin.client.get(`/workspaces/${ws.id}/assets/${init.asset_id}`)).json().status).toBe("uploading");

      // A direct upload while full: 507 too, and no file left behind in the store.
      const small = randomBytes(4 * 1024 * 1024);
      const direct = (
        await admin.client.post(`/workspaces/${ws.id}/assets/upload`, { name: "s.bin", size: small.length })
      ).json();
      expect((await put(direct.direct_url, small)).statusCode).toBe(507);

      // Space freed: the same part is sent again and the upload completes with the right bytes.
      await rm(filler);
      const again = await put(init.parts[0].url, slice(init.parts[0]));
      expect(again.statusCode, again.body).toBe(200);
      expect(again.headers.etag, JSON.stringify(again.headers)).toBeTruthy();
      const done = await admin.client.post(`/workspaces/${ws.id}/assets/upload/complete`, {
        upload_id: init.upload_id,
        key: init.key,
        parts: [
          { part_number: 1, etag: again.headers.etag },
          { part_number: 2, etag: e2 },
        ],
      });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json().sha256).toBe(sha(data));
      expect(await waitForAsset(admin.client, ws.id, init.asset_id)).toMatchObject({
        status: "COMPLETED",
        size: data.length,
      });
      expect((await put(direct.direct_url, small)).statusCode).toBe(200);
      expect(await waitForAsset(admin.client, ws.id, direct.asset_id)).toMatchObject({ status: "COMPLETED" });
    },
    90_000,
  );
});
