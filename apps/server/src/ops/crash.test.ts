import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpLogin, sharedInstance, spawnHangar, spawnReady } from "../../test/processes.ts";
import { sweepOrphans } from "./orphans.ts";

const KILLS = Number(process.env.CRASH_KILLS ?? 20);
const DAY = 24 * 60 * 60 * 1000;

/**
 * `kill -9` of the API process in the middle of uploads, KILLS times. Afterwards, once the upload
 * cleanup and the orphan sweep have run: no asset row without its bytes, no bytes without a row.
 */
describe("kill -9 of the API process during uploads", () => {
  let shared: Awaited<ReturnType<typeof sharedInstance>>;
  beforeAll(async () => {
    shared = await sharedInstance();
  }, 60_000);
  afterAll(() => shared?.close());

  it(`leaves no rows without bytes and no bytes without rows after ${KILLS} kills`, async () => {
    const { env, workspaceId, rt } = shared;
    let port = 0; // the first start picks it (retrying a port someone else took), the restarts reuse it
    let headers: Awaited<ReturnType<typeof httpLogin>> | null = null;
    let completed = 0;
    const startMs: number[] = [];
    const stages = { init: 0, part: 0, complete: 0, folder: 0 };

    for (let round = 0; round < KILLS; round++) {
      const t0 = Date.now();
      const api = port ? spawnHangar("serve", env, port) : await spawnReady("serve", env, (p) => p.waitReady());
      if (port) await api.waitReady();
      port = api.port;
      startMs.push(Date.now() - t0);
      headers ??= await httpLogin(api.base, shared.email, shared.password);
      const h = headers;
      const call = (p: string, body: unknown) =>
        fetch(`${api.base}/api/v1${p}`, { method: "POST", headers: h, body: JSON.stringify(body) });
      let alive = true;

      // Three clients upload in a loop (multipart, 2–3 parts) and one sends folder uploads, until the kill.
      const multipart = async () => {
        while (alive) {
          const data = randomBytes(6 * 1024 * 1024 + Math.floor(Math.random() * 6 * 1024 * 1024));
          const init = (await (
            await call(`/workspaces/${workspaceId}/assets/upload`, { name: "crash.bin", size: data.length })
          ).json()) as {
            upload_id: string;
            key: string;
            parts: Array<{ part_number: number; start_byte: number; end_byte: number; url: string }>;
          };
          stages.init++;
          const parts = [];
          for (const p of init.parts) {
            const r = await fetch(`${api.base}${p.url}`, {
              method: "PUT",
              body: new Uint8Array(data.subarray(p.start_byte, p.end_byte + 1)),
            });
            stages.part++;
            parts.push({ part_number: p.part_number, etag: r.headers.get("etag") ?? "" });
          }
          const done = await call(`/workspaces/${workspaceId}/assets/upload/complete`, {
            upload_id: init.upload_id,
            key: init.key,
            parts,
          });
          stages.complete++;
          if (done.status === 200) completed++;
        }
      };
      const folder = async () => {
        while (alive) {
          const form = new FormData();
          for (let i = 0; i < 3; i++) {
            form.append("files", new Blob([new Uint8Array(randomBytes(512 * 1024))]), `f${i}.bin`);
            form.append(`file_paths[${i}]`, `Drop ${round}/sub/f${i}.bin`);
          }
          await fetch(`${api.base}/api/v1/workspaces/${workspaceId}/upload-folder`, {
            method: "POST",
            headers: { cookie: h.cookie, "x-csrftoken": h["x-csrftoken"] },
            body: form,
          });
          stages.folder++;
        }
      };
      const clients = [multipart(), multipart(), multipart(), folder()].map((c) => c.catch(() => {}));
      await new Promise((r) => setTimeout(r, 400 + Math.random() * 2000));
      api.proc.kill("SIGKILL");
      alive = false;
      expect(await api.exited).toBe("SIGKILL");
      await Promise.all(clients);
    }
    expect(completed, JSON.stringify({ stages, startMs })).toBeGreaterThan(0);

    // The cleanup job's two steps, run as if a day had passed.
    await rt.services.uploads.cleanupAbandoned(Date.now() + 2 * DAY);
    await sweepOrphans({ db: rt.db, store: rt.store }, Date.now() + 2 * DAY);

    const assets = await rt.db
      .selectFrom("assets")
      .select(["id", "status", "storage_key", "directory"])
      .where("workspace_id", "=", workspaceId)
      .execute();
    expect(assets.length).toBeGreaterThan(0);
    // No row without bytes: nothing is left half-uploaded, and every uploaded asset has its original.
    expect(assets.filter((a) => a.status === "uploading")).toEqual([]);
    for (const a of assets) {
      expect(a.storage_key, a.id).toBeTruthy();
      expect(await rt.store.stat(a.storage_key!), `${a.id} ${a.status}`).not.toBeNull();
    }
    // No bytes without a row.
    const directories = new Set(assets.map((a) => a.directory));
    const uploads = new Set((await rt.db.selectFrom("uploads").select("id").execute()).map((u) => u.id));
    for await (const blob of rt.store.list("")) {
      const [top, a, b] = blob.key.split("/");
      if (top === "media") expect(directories.has(`${a}/${b}`), blob.key).toBe(true);
      else if (top === "uploads") expect(uploads.has(a!), blob.key).toBe(true);
      else throw new Error(`unexpected blob ${blob.key}`);
    }
  }, 900_000); // 20 starts of `hangar serve`: ~110 s on a quiet machine, over 300 s at load 17
});
