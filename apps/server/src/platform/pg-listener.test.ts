import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createTestEnv, type TestEnv, workspaceWith } from "../../test/harness.ts";
import { readSse } from "../../test/sse.ts";
import { LISTENER_NAME } from "./pg-listener.ts";
import { CACHE_CHANNEL, cacheKeys } from "./read-cache.ts";

/**
 * Issue 28: one database-notification listener per process serves both of its consumers, the read
 * cache (`hangar_cache`) and the live streams (`hangar_events`), on one connection with one heartbeat;
 * when that connection is lost both are told, and both hear again once it is replaced.
 */
let env: TestEnv;
let base = "";
beforeAll(async () => {
  env = await createTestEnv();
  base = await env.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => env.close());

/** This process's listening connections (their names end with its pid; the pool's and jobs' do not). */
async function listeners() {
  const { rows } = await sql<{ pid: number; application_name: string }>`
    SELECT pid, application_name FROM pg_stat_activity
    WHERE application_name LIKE 'hangar-%' AND application_name LIKE ${`% ${process.pid}`}`.execute(env.rt.db);
  return rows;
}

/** A live stream of the workspace: its events as they arrive, and a wait for one. */
async function stream(cookie: string, ws: string) {
  const ctrl = new AbortController();
  const res = await fetch(`${base}/api/v1/workspaces/${ws}/events`, { headers: { cookie }, signal: ctrl.signal });
  expect(res.status).toBe(200);
  const events: Array<{ event: string; data: Record<string, unknown> }> = [];
  const waiters = new Set<() => void>();
  void readSse(res, (event, data) => {
    events.push({ event, data: data as Record<string, unknown> });
    for (const w of waiters) w();
  });
  const waitFor = (pred: (e: (typeof events)[number]) => boolean, from = 0) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!events.slice(from).some(pred)) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  await waitFor((e) => e.event === "ready");
  return { events, waitFor, close: () => ctrl.abort() };
}

/**
 * Waits until every change committed so far has been heard: notifications arrive in commit order, so
 * once one sent now has dropped its entry, the earlier ones are in.
 */
async function settle() {
  const cache = env.rt.cache;
  const key = cacheKeys.user(randomUUID());
  cache.set("fence", true, [key], cache.snapshot());
  await sql`SELECT pg_notify(${CACHE_CHANNEL}, ${key})`.execute(env.rt.db);
  await vi.waitFor(() => expect(cache.get("fence")).toBeUndefined(), { timeout: 5_000, interval: 10 });
}

async function setUp() {
  const { ws, admin } = await workspaceWith(env);
  const cookie = [...admin.client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const asset = await env.rt.db
    .insertInto("assets")
    .values({ workspace_id: ws.id, name: "a.jpg", status: "COMPLETED", is_temp: false, file_type: "IMAGE" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const comment = async (text: string) => {
    const res = await admin.client.post(`/workspaces/${ws.id}/comments`, {
      content_type: "asset",
      object_id: asset.id,
      text,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  /**
   * A cache entry that depends on the workspace: it goes when a change to the workspace is heard. Set
   * once the notifications of this set-up have arrived, so none of them can be what drops it.
   */
  const probe = async (key: string) => {
    await settle();
    const cache = env.rt.cache;
    cache.set(key, true, [cacheKeys.workspace(ws.id)], cache.snapshot());
    expect(cache.get(key)).toBe(true);
  };
  /** A change to the workspace made outside this process's services: only a notification tells the cache. */
  const changeElsewhere = (name: string) =>
    env.rt.db.updateTable("assets").set({ name }).where("id", "=", asset.id).execute();
  return { ws, cookie, comment, probe, changeElsewhere };
}

it("one LISTEN connection per process serves the read cache and the live streams", async () => {
  const { ws, cookie, comment, probe, changeElsewhere } = await setUp();
  const s = await stream(cookie, ws.id);
  // Both consumers subscribed: the cache is live, a stream is open.
  expect(env.rt.cache.live).toBe(true);
  expect(env.rt.live.size()).toBeGreaterThan(0);
  expect((await listeners()).map((r) => r.application_name)).toEqual([LISTENER_NAME]);

  // Both hear through it.
  await probe("one");
  await changeElsewhere("b.jpg");
  await vi.waitFor(() => expect(env.rt.cache.get("one")).toBeUndefined(), { timeout: 5_000, interval: 10 });
  const id = await comment("heard");
  await s.waitFor((e) => e.event === "comment.created" && e.data.comment_id === id);
  s.close();
});

it("killing the connection makes both consumers resync, then hear again on one new connection", async () => {
  const { ws, cookie, comment, probe, changeElsewhere } = await setUp();
  const s = await stream(cookie, ws.id);
  const [before] = await listeners();
  expect(before?.application_name).toBe(LISTENER_NAME);
  // An entry no change can drop: only forgetting everything does.
  env.rt.cache.set("before", true, [cacheKeys.user(randomUUID())], env.rt.cache.snapshot());
  expect(env.rt.cache.get("before")).toBe(true);
  const seen = s.events.length;

  await sql`SELECT pg_terminate_backend(${before!.pid}::int)`.execute(env.rt.db);
  // The stream is told to refetch once events are heard again; the cache forgot what it could not trust.
  await s.waitFor((e) => e.event === "resync", seen);
  await vi.waitFor(() => expect(env.rt.cache.live).toBe(true), { timeout: 15_000, interval: 10 });
  expect(env.rt.cache.get("before")).toBeUndefined();
  const after = await listeners();
  expect(after.map((r) => r.application_name)).toEqual([LISTENER_NAME]);
  expect(after[0]!.pid).not.toBe(before!.pid);

  // Invalidations are heard again, and so are live events.
  await probe("after");
  await changeElsewhere("c.jpg");
  await vi.waitFor(() => expect(env.rt.cache.get("after")).toBeUndefined(), { timeout: 5_000, interval: 10 });
  const id = await comment("after the gap");
  await s.waitFor((e) => e.event === "comment.created" && e.data.comment_id === id, seen);
  s.close();
});
