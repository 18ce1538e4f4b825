import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Client, createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { readSse } from "../../../test/sse.ts";
import { EVENTS_LISTENER_NAME, STREAMS_PER_SESSION } from "../../platform/live-events.ts";

/**
 * Issue 27: a session's live streams are capped (a new one beyond closes its oldest), a removed
 * member's stream ends when the removal commits, and events stay in their workspace. The heartbeat
 * is set to an hour here, so nothing but the removal notice can end a removed member's stream
 * within the test's time.
 */
let env: TestEnv;
let base = "";
beforeAll(async () => {
  env = await createTestEnv({ LIVE_HEARTBEAT_SECONDS: "3600" });
  base = await env.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => env.close());

interface Seen {
  event: string;
  data: Record<string, unknown>;
}
/** Opens a stream with the client's session; `ended` settles when the server ends it. */
async function open(c: Client, ws: string) {
  const ctrl = new AbortController();
  const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const res = await fetch(`${base}/api/v1/workspaces/${ws}/events`, { headers: { cookie }, signal: ctrl.signal });
  expect(res.status).toBe(200);
  const events: Seen[] = [];
  const waiters: Array<() => void> = [];
  let done = false;
  const ended = readSse(res, (event, data) => {
    events.push({ event, data: data as Record<string, unknown> });
    for (const w of waiters.splice(0)) w();
  }).then(() => {
    done = true;
  });
  /** Resolves once an event matching `pred` has arrived (it is pushed as it comes, no polling). */
  const waitFor = (pred: (e: Seen) => boolean) =>
    new Promise<Seen>((resolve) => {
      const check = () => {
        const hit = events.find(pred);
        if (hit) resolve(hit);
        else waiters.push(check);
      };
      check();
    });
  await waitFor((e) => e.event === "ready");
  return { events, waitFor, ended, isDone: () => done, close: () => ctrl.abort() };
}

async function comment(c: Client, ws: string, text: string) {
  const asset = await env.rt.db
    .insertInto("assets")
    .values({ workspace_id: ws, name: "a.jpg", status: "COMPLETED", is_temp: false, file_type: "IMAGE" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const res = await c.post(`/workspaces/${ws}/comments`, { content_type: "asset", object_id: asset.id, text });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

it("one session's streams beyond the cap close the oldest first", async () => {
  const { ws, admin } = await workspaceWith(env);
  const streams = [];
  for (let i = 0; i < STREAMS_PER_SESSION; i++) streams.push(await open(admin.client, ws.id));
  expect(streams.some((s) => s.isDone())).toBe(false);
  streams.push(await open(admin.client, ws.id));
  await streams[0]!.ended;
  // The others are still served: an event reaches every one of them.
  const id = await comment(admin.client, ws.id, "to all");
  await Promise.all(streams.slice(1).map((s) => s.waitFor((e) => e.data.comment_id === id)));
  expect(streams.slice(1).some((s) => s.isDone())).toBe(false);
  expect(streams[0]!.events.some((e) => e.data.comment_id === id)).toBe(false);
  for (const s of streams) s.close();
});

it("a removed member's stream ends when the removal happens; the others go on", async () => {
  const { ws, admin, members } = await workspaceWith(env, ["EDITOR"]);
  const editor = members.EDITOR!;
  const theirs = await open(editor.client, ws.id);
  const mine = await open(admin.client, ws.id);
  const removed = await admin.client.del(`/workspaces/${ws.id}/members/${editor.user.id}`);
  expect(removed.statusCode).toBeLessThan(300);
  await theirs.ended;
  const id = await comment(admin.client, ws.id, "after");
  await mine.waitFor((e) => e.data.comment_id === id);
  expect(mine.isDone()).toBe(false);
  mine.close();
});

it("events stay within their workspace", async () => {
  const a = await workspaceWith(env);
  const b = await workspaceWith(env);
  const inA = await open(a.admin.client, a.ws.id);
  const inB = await open(b.admin.client, b.ws.id);
  const idB = await comment(b.admin.client, b.ws.id, "for B");
  await inB.waitFor((e) => e.data.comment_id === idB);
  // Notifications arrive in commit order: once A's own comment is in, B's would have been before it.
  const idA = await comment(a.admin.client, a.ws.id, "for A");
  await inA.waitFor((e) => e.data.comment_id === idA);
  expect(inA.events.some((e) => e.data.comment_id === idB)).toBe(false);
  expect(inB.events.some((e) => e.data.comment_id === idA)).toBe(false);
  inA.close();
  inB.close();
});

it("a stream is told to resync when the listening connection was lost, then hears events again", async () => {
  const { ws, admin } = await workspaceWith(env);
  const s = await open(admin.client, ws.id);
  // This process's listener only: other test files' hubs go on undisturbed.
  await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ${EVENTS_LISTENER_NAME}`.execute(
    env.rt.db,
  );
  // What was announced while it was gone is not replayed: the stream is told to refetch instead.
  await s.waitFor((e) => e.event === "resync");
  const id = await comment(admin.client, ws.id, "after the gap");
  await s.waitFor((e) => e.event === "comment.created" && e.data.comment_id === id);
  s.close();
});
