import { afterAll, beforeAll, expect, it } from "vitest";
import { type HangarProcess, httpLogin, sharedInstance, spawnReady } from "../../../test/processes.ts";
import { readSse } from "../../../test/sse.ts";

/**
 * Live events across machines: two `hangar serve` processes on one database. A viewer streams from
 * one; a comment made through the other reaches it within a second, as does an asset's status change
 * made by any process (here: straight in the database, as a worker would).
 */
let shared: Awaited<ReturnType<typeof sharedInstance>>;
let a: HangarProcess;
let b: HangarProcess;
let headers: Awaited<ReturnType<typeof httpLogin>>;
let assetId = "";

beforeAll(async () => {
  shared = await sharedInstance();
  [a, b] = await Promise.all([
    spawnReady("serve", shared.env, (p) => p.waitReady()),
    spawnReady("serve", shared.env, (p) => p.waitReady()),
  ]);
  headers = await httpLogin(a.base, shared.email, shared.password);
  const row = await shared.rt.db
    .insertInto("assets")
    .values({
      workspace_id: shared.workspaceId,
      name: "poster.jpg",
      status: "COMPLETED",
      is_temp: false,
      file_type: "IMAGE",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  assetId = row.id;
}, 240_000);

afterAll(async () => {
  for (const p of [a, b]) if (p && p.proc.exitCode === null) p.proc.kill("SIGKILL");
  await Promise.all([a?.exited, b?.exited]);
  await shared?.close();
});

/** Opens the SSE stream and collects its events (name and data) as they arrive. */
async function stream(base: string) {
  const ctrl = new AbortController();
  const res = await fetch(`${base}/api/v1/workspaces/${shared.workspaceId}/events`, {
    headers: { cookie: headers.cookie },
    signal: ctrl.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  expect(res.headers.get("x-accel-buffering")).toBe("no");
  const events: Array<{ event: string; data: Record<string, unknown>; at: number }> = [];
  void readSse(res, (event, data) =>
    events.push({ event, data: data as Record<string, unknown>, at: performance.now() }),
  );
  const waitFor = async (pred: (e: (typeof events)[number]) => boolean, timeoutMs = 20_000) => {
    const until = performance.now() + timeoutMs;
    for (;;) {
      const hit = events.find(pred);
      if (hit) return hit;
      if (performance.now() > until)
        throw new Error(`no such event; got ${JSON.stringify(events.map((e) => e.event))}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  await waitFor((e) => e.event === "ready");
  return { events, waitFor, close: () => ctrl.abort() };
}

// How fast is bench/comments' figure (SSE fan-out); here: that it arrives, whole, on the other process.
it("a comment made through one API process reaches a viewer streaming from another", async () => {
  const viewer = await stream(b.base);
  const res = await fetch(`${a.base}/api/v1/workspaces/${shared.workspaceId}/comments`, {
    method: "POST",
    headers,
    body: JSON.stringify({ content_type: "asset", object_id: assetId, text: "live!" }),
  });
  expect(res.status).toBe(201);
  const created = (await res.json()) as { id: string };
  const got = await viewer.waitFor((e) => e.event === "comment.created" && e.data.comment_id === created.id);
  expect(got.data).toMatchObject({
    type: "comment.created",
    asset_id: assetId,
    thread_id: created.id,
    parent_id: null,
  });

  await fetch(`${a.base}/api/v1/workspaces/${shared.workspaceId}/comments/${created.id}/resolve`, {
    method: "POST",
    headers,
    body: JSON.stringify({ resolved: true }),
  });
  await viewer.waitFor((e) => e.event === "comment.resolved" && e.data.comment_id === created.id);

  // A status change by anyone (a worker, here SQL) is announced too.
  await shared.rt.db.updateTable("assets").set({ status: "error" }).where("id", "=", assetId).execute();
  const status = await viewer.waitFor((e) => e.event === "asset.status");
  expect(status.data).toMatchObject({ asset_id: assetId, status: "error" });
  viewer.close();
});

it("a stream needs a member's session", async () => {
  const res = await fetch(`${b.base}/api/v1/workspaces/${shared.workspaceId}/events`);
  expect(res.status).toBe(401);
});
