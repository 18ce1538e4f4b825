import { createHash, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPatternVideo } from "../../test/fixtures.ts";
import {
  childrenOf,
  type HangarProcess,
  httpLogin,
  sharedInstance,
  spawnHangar,
  spawnReady,
} from "../../test/processes.ts";
import type { Runtime } from "../runtime.ts";

type Headers = Awaited<ReturnType<typeof httpLogin>>;
type Init = {
  asset_id: string;
  upload_id: string;
  key: string;
  direct_url?: string;
  parts?: Array<{ part_number: number; start_byte: number; end_byte: number; url: string }>;
};

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/**
 * The many-machines shape on one machine: two `hangar serve` processes and one `hangar work`
 * process sharing one PostgreSQL and one data directory, driven over real HTTP.
 */
describe("separate API and worker processes", () => {
  let shared: Awaited<ReturnType<typeof sharedInstance>>;
  let dataDir = "";
  let rt: Runtime;
  let env: Record<string, string>;
  const procs: HangarProcess[] = [];
  let api1: HangarProcess;
  let api2: HangarProcess;
  let worker: HangarProcess;
  let headers: Headers;
  let workspaceId = "";

  beforeAll(async () => {
    shared = await sharedInstance();
    ({ rt, env, dataDir, workspaceId } = shared);
    [api1, api2, worker] = await Promise.all([
      spawnReady("serve", env, (p) => p.waitReady()),
      spawnReady("serve", env, (p) => p.waitReady()),
      spawnReady(
        "work",
        { ...env, SHUTDOWN_TIMEOUT_SECONDS: "1" },
        (p) => p.waitForOutput(/workers are running/),
        "METRICS_PORT",
      ),
    ]);
    procs.push(api1, api2, worker);
    headers = await httpLogin(api1.base, shared.email, shared.password);
  }, 240_000);

  afterAll(async () => {
    for (const p of procs) if (p.proc.exitCode === null) p.proc.kill("SIGKILL");
    await Promise.all(procs.map((p) => p.exited));
    await shared?.close();
  });

  const api = (base: string, pathname: string, body?: unknown) =>
    fetch(`${base}/api/v1${pathname}`, {
      method: body === undefined ? "GET" : "POST",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const put = (base: string, url: string, bytes: Buffer) =>
    fetch(`${base}${url}`, { method: "PUT", body: new Uint8Array(bytes) });
  const waitDone = async (base: string, id: string, timeoutMs = 60_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const a = (await (await api(base, `/workspaces/${workspaceId}/assets/${id}`)).json()) as { status: string };
      if (a.status === "COMPLETED" || a.status === "error") return a;
      if (Date.now() > until) throw new Error(`asset ${id} still ${a.status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  /** PUTs each part (part i to `baseFor(i)`) and answers the ETags to complete with. */
  const putParts = async (init: Init, bytes: Buffer, baseFor: (i: number) => string) => {
    const out: Array<{ part_number: number; etag: string }> = [];
    for (const [i, p] of (init.parts ?? []).entries()) {
      const r = await put(baseFor(i), p.url, bytes.subarray(p.start_byte, p.end_byte + 1));
      expect(r.status).toBe(200);
      out.push({ part_number: p.part_number, etag: r.headers.get("etag") ?? "" });
    }
    return out;
  };
  const complete = (base: string, init: Init, parts: Array<{ part_number: number; etag: string }>) =>
    api(base, `/workspaces/${workspaceId}/assets/upload/complete`, { upload_id: init.upload_id, key: init.key, parts });

  it("completes uploads whose calls are spread over both API processes; only the worker processes", async () => {
    // Multipart: init on 1, part 1 to 2, part 2 to 1, complete on 2.
    const big = randomBytes(12 * 1024 * 1024 + 5);
    const init = (await (
      await api(api1.base, `/workspaces/${workspaceId}/assets/upload`, { name: "big.bin", size: big.length })
    ).json()) as Init;
    expect(init.parts).toHaveLength(2);
    const parts = await putParts(init, big, (i) => (i === 0 ? api2.base : api1.base));
    const done = await complete(api2.base, init, parts);
    expect(done.status).toBe(200);
    expect(((await done.json()) as { sha256: string }).sha256).toBe(sha(big));

    // Direct: init on 2, the bytes to 1.
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#2060c0" } })
      .png()
      .toBuffer();
    const small = (await (
      await api(api2.base, `/workspaces/${workspaceId}/assets/upload`, { name: "blue.png", size: png.length })
    ).json()) as Init;
    expect((await put(api1.base, small.direct_url!, png)).status).toBe(200);

    expect(await waitDone(api1.base, init.asset_id)).toMatchObject({ status: "COMPLETED", size: big.length });
    expect(await waitDone(api2.base, small.asset_id)).toMatchObject({ status: "COMPLETED", width: 300, height: 200 });

    // The worker did the processing; the API processes ran no process-asset job.
    const count = (text: string) =>
      Number(
        /hangar_job_duration_seconds_count\{queue="process-asset",status="completed"\} (\d+)/.exec(text)?.[1] ?? 0,
      );
    // A job's duration is recorded when its handler returns, a moment after the asset shows COMPLETED.
    await expect
      .poll(async () => count(await (await fetch(`http://127.0.0.1:${worker.port}/metrics`)).text()), {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(2);
    for (const a of [api1, api2]) expect(count(await (await fetch(`${a.base}/metrics`)).text())).toBe(0);
  }, 240_000);

  it("a change through one API process reaches the other's read cache within a second", async () => {
    const { hashPassword } = await import("../modules/auth/passwords.ts");
    const email = `member-${Date.now()}@example.test`;
    const member = await rt.services.users.create({
      email,
      password_hash: await hashPassword(shared.password),
      first_name: "Other",
      last_name: "Member",
      email_verified_at: new Date(),
    });
    await rt.db
      .insertInto("memberships")
      .values({ workspace_id: workspaceId, user_id: member!.id, role: "EDITOR" })
      .execute();
    const asset = await rt.db
      .insertInto("assets")
      .values({ workspace_id: workspaceId, name: "before.jpg", status: "COMPLETED", is_temp: false })
      .returning("id")
      .executeTakeFirstOrThrow();
    const memberHeaders = await httpLogin(api2.base, email, shared.password);
    const url = `/api/v1/workspaces/${workspaceId}/assets/${asset.id}`;
    const viaApi2 = () => fetch(`${api2.base}${url}`, { headers: memberHeaders });
    const within = async (check: () => Promise<boolean>) => {
      const start = Date.now();
      while (!(await check())) {
        if (Date.now() - start > 1_000) throw new Error("not within a second");
        await new Promise((r) => setTimeout(r, 5));
      }
      return Date.now() - start;
    };
    for (let i = 0; i < 5; i++) expect((await viaApi2()).status).toBe(200); // read, then cached on api2

    const renamed = await fetch(`${api1.base}${url}`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ name: "after.jpg" }),
    });
    expect(renamed.status).toBe(200);
    await within(async () => ((await (await viaApi2()).json()) as { name: string }).name === "after.jpg");

    const removed = await fetch(`${api1.base}/api/v1/workspaces/${workspaceId}/members/${member!.id}`, {
      method: "DELETE",
      headers: { cookie: headers.cookie, "x-csrftoken": headers["x-csrftoken"] },
    });
    expect(removed.status).toBe(200);
    // Removal ends access to this workspace (issue 12: the member's sessions live on).
    await within(async () => (await viaApi2()).status === 404);
  });

  it("SIGTERM on an API process finishes the request in flight, then exits cleanly", async () => {
    const data = randomBytes(9 * 1024 * 1024);
    const init = (await (
      await api(api1.base, `/workspaces/${workspaceId}/assets/upload`, { name: "slow.bin", size: data.length })
    ).json()) as Init;
    const part = init.parts![0]!;
    const slice = data.subarray(part.start_byte, part.end_byte + 1);
    const answer = new Promise<{ status: number; etag: string }>((resolve, reject) => {
      const req = http.request(`${api1.base}${part.url}`, {
        method: "PUT",
        headers: { "content-length": String(slice.length) },
      });
      req.on("response", (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, etag: String(res.headers.etag ?? "") }));
      });
      req.on("error", reject);
      // Half now; SIGTERM; the rest a moment later.
      req.write(slice.subarray(0, 1024 * 1024));
      setTimeout(() => {
        api1.proc.kill("SIGTERM");
        setTimeout(() => req.end(slice.subarray(1024 * 1024)), 500);
      }, 300);
    });
    const res = await answer;
    expect(res.status).toBe(200);
    expect(await api1.exited).toBe(0);
    expect(api1.output()).toMatch(/stopping: no new requests/);
    // The part it accepted counts: the upload completes through the other process.
    const rest = await putParts({ ...init, parts: init.parts!.slice(1) }, data, () => api2.base);
    const done = await complete(api2.base, init, [{ part_number: part.part_number, etag: res.etag }, ...rest]);
    expect(done.status).toBe(200);
    expect(((await done.json()) as { sha256: string }).sha256).toBe(sha(data));
  }, 60_000);

  it("SIGTERM on the worker mid-job loses nothing: a new worker finishes the job", async () => {
    // A video long enough that its transcode is still running when the worker is told to stop.
    const video = path.join(dataDir, "long.mp4");
    await testPatternVideo(video, "testsrc=size=1280x720:rate=30:duration=40");
    const bytes = await readFile(video);
    const init = (await (
      await api(api2.base, `/workspaces/${workspaceId}/assets/upload`, { name: "long.mp4", size: bytes.length })
    ).json()) as Init;
    if (init.direct_url) expect((await put(api2.base, init.direct_url, bytes)).status).toBe(200);
    else expect((await complete(api2.base, init, await putParts(init, bytes, () => api2.base))).status).toBe(200);
    // The worker has started it (attempt 1) …
    const until = Date.now() + 30_000;
    for (;;) {
      const row = await rt.db
        .selectFrom("assets")
        .select(["processing_attempts", "status"])
        .where("id", "=", init.asset_id)
        .executeTakeFirstOrThrow();
      if (row.processing_attempts >= 1) {
        expect(row.status).toBe("processing");
        break;
      }
      if (Date.now() > until) throw new Error("the worker never picked the job up");
      await new Promise((r) => setTimeout(r, 50));
    }
    // The pipeline runs in a child started with two malloc arenas (bin/malloc-arenas.mjs) …
    const [child] = childrenOf(worker.proc.pid!).filter((c) => c.environ.includes("MALLOC_ARENA_MAX=2"));
    const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
    if (report.header?.glibcVersionRuntime) expect(child).toBeDefined();
    // … and is told to stop through its parent; its shutdown bound (1 s) cuts the transcode off.
    worker.proc.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    if (child) expect(() => process.kill(child.pid, 0)).toThrow(); // gone with it
    const state = await rt.db
      .selectFrom("assets")
      .select("status")
      .where("id", "=", init.asset_id)
      .executeTakeFirstOrThrow();
    expect(state.status).toBe("processing");

    const next = spawnHangar("work", env);
    procs.push(next);
    await next.waitForOutput(/workers are running/);
    expect(await waitDone(api2.base, init.asset_id, 120_000)).toMatchObject({ status: "COMPLETED" });
  }, 240_000);
});
