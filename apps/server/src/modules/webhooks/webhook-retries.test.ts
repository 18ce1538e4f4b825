import type { WebhookDelivery, WebhookDeliveryDetail, WebhookWithSecret } from "@hangar/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, type TestEnv, uploadBytes, workspaceWith } from "../../../test/harness.ts";
import { mailsSettled, smtpInbox, waitForMails } from "../../../test/mail-inbox.ts";
import { png } from "../../../test/versions.ts";
import { type Receiver, until, webhookReceiver } from "./receiver.fixture.ts";

/**
 * Deliveries that fail (issue 36): retried with exponential backoff on the runtime's clock, which the
 * test holds still and moves; an object's next event waits for the one before, other objects' do not;
 * a day of failures disables the endpoint and mails its ADMINs (real SMTP). Redirects are not followed.
 */
let env: TestEnv;
let rec: Receiver;
let smtp: Awaited<ReturnType<typeof smtpInbox>>;
let realNow: () => Date;
beforeAll(async () => {
  rec = await webhookReceiver();
  smtp = await smtpInbox();
  env = await createTestEnv({ SMTP_URL: smtp.url, AI_TAGS: "0", OCR: "0" }, { ownDatabase: true });
  realNow = env.rt.clock.now;
});
afterAll(async () => {
  await env.close();
  await rec.close();
  await smtp.close();
});
afterEach(() => {
  env.rt.clock.now = realNow;
  rec.answerWith(() => ({ status: 200, body: "ok" }));
});

const SEC = 1000;
const HOUR = 3600 * SEC;

async function register(admin: Client, ws: string, path: string, events: string[]) {
  const res = await admin.post(`/workspaces/${ws}/webhooks`, { url: rec.url(path), events });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as WebhookWithSecret;
}
/** The endpoint's log, oldest first. */
async function log(c: Client, ws: string, hook: string): Promise<WebhookDelivery[]> {
  const res = await c.get(`/workspaces/${ws}/webhooks/${hook}/deliveries`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as WebhookDelivery[]).reverse();
}
const gap = (d: WebhookDelivery) => Date.parse(d.next_attempt_at!) - Date.parse(d.last_attempt_at!);
const comment = async (c: Client, ws: string, asset: string, text: string) =>
  (await c.post(`/workspaces/${ws}/comments`, { content_type: "asset", object_id: asset, text })).json() as {
    id: string;
  };

describe("webhook retries", () => {
  it("retries with backoff on the clock; an object's next event waits for the one before, others go on", async () => {
    const t0 = realNow();
    env.rt.clock.now = () => t0; // held still: only the test moves it
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const hook = await register(c, ws.id, "/flaky", ["comment.created", "comment.resolved"]);
    const asset = await uploadBytes(c, ws.id, "r.png", await png("rgb(3, 4, 5)"));
    // Comment A's deliveries fail; everything else is taken.
    rec.answerWith((h) =>
      JSON.parse(h.body).data.object.text === "A" ? { status: 503, body: "busy" } : { status: 204 },
    );
    const a = await comment(c, ws.id, asset, "A");
    await c.post(`/workspaces/${ws.id}/comments/${a.id}/resolve`, { resolved: true }); // queued behind A's first
    let [first, second] = await until(async () => {
      const l = await log(c, ws.id, hook.id);
      return l.length === 2 && l[0]!.last_attempt_at !== null && l;
    });
    expect(first).toMatchObject({ type: "comment.created", status: "pending", attempts: 1, response_status: 503 });
    expect(first!.response_body).toBe("busy");
    expect(first!.error).toBe("The endpoint answered 503.");
    expect(gap(first!)).toBe(30 * SEC);
    expect(second).toMatchObject({ type: "comment.resolved", status: "pending", attempts: 0 });
    const state = (await c.get(`/workspaces/${ws.id}/webhooks/${hook.id}`)).json();
    expect(state.state).toBe("failing");
    expect(state.failing_since).toBe(first!.last_attempt_at);

    // Another object is not held up by A.
    const b = await comment(c, ws.id, asset, "B");
    await until(() => rec.on("/flaky").find((h) => h.objectId === b.id && h.type === "comment.created"));

    // Not due yet: nothing. Then each retry at its time, the wait doubling.
    await env.rt.webhooks.sweep(new Date(Date.parse(first!.next_attempt_at!) - 1));
    expect((await log(c, ws.id, hook.id))[0]!.attempts).toBe(1);
    for (const [attempts, wait] of [
      [2, 60],
      [3, 120],
      [4, 240],
    ] as const) {
      await env.rt.webhooks.sweep(new Date(first!.next_attempt_at!));
      [first, second] = await log(c, ws.id, hook.id);
      expect(first).toMatchObject({ attempts, status: "pending" });
      expect(gap(first!)).toBe(wait * SEC);
      expect(second!.attempts).toBe(0);
    }
    const aHits = () => rec.on("/flaky").filter((h) => h.objectId === a.id);
    expect(aHits().map((h) => h.type)).toEqual(Array(4).fill("comment.created"));

    // The endpoint answers again: A's first, then its second, in order, at the next retry.
    rec.answerWith(() => ({ status: 200 }));
    await env.rt.webhooks.sweep(new Date(first!.next_attempt_at!));
    [first, second] = await log(c, ws.id, hook.id);
    expect(first).toMatchObject({ status: "delivered", attempts: 5, response_status: 200, next_attempt_at: null });
    expect(second).toMatchObject({ status: "delivered", attempts: 1 });
    expect(aHits().map((h) => h.type)).toEqual([...Array(5).fill("comment.created"), "comment.resolved"]);
    expect(new Set(aHits().map((h) => h.headers["hangar-event-id"])).size).toBe(2); // retries keep their id
    expect((await c.get(`/workspaces/${ws.id}/webhooks/${hook.id}`)).json()).toMatchObject({
      state: "enabled",
      failing_since: null,
    });
  });

  it("a day of failures disables the endpoint, fails what waits, and mails its ADMINs once", async () => {
    const t0 = realNow();
    env.rt.clock.now = () => t0;
    const { ws, admin } = await workspaceWith(env, ["EDITOR"]);
    const c = admin.client;
    const hook = await register(c, ws.id, "/down", ["comment.created"]);
    rec.answerWith(() => ({ status: 500 }));
    const asset = await uploadBytes(c, ws.id, "d.png", await png("rgb(8, 4, 5)"));
    await comment(c, ws.id, asset, "one");
    await comment(c, ws.id, asset, "two");
    await until(async () => {
      const l = await log(c, ws.id, hook.id);
      return l.length === 2 && l.every((d) => d.last_attempt_at !== null);
    });

    // 23 hours on: still failing, still enabled.
    await env.rt.webhooks.sweep(new Date(t0.getTime() + 23 * HOUR));
    expect((await c.get(`/workspaces/${ws.id}/webhooks/${hook.id}`)).json().state).toBe("failing");
    // A day and more (from the first failure, a moment after t0): the next failure disables it.
    await env.rt.webhooks.sweep(new Date(t0.getTime() + 24 * HOUR + 10 * 60 * SEC));
    const after = (await c.get(`/workspaces/${ws.id}/webhooks/${hook.id}`)).json();
    expect(after).toMatchObject({ enabled: false, state: "disabled", disabled_reason: "Deliveries failed for a day." });
    expect((await log(c, ws.id, hook.id)).map((d) => d.status)).toEqual(["failed", "failed"]);

    const disabledMails = () => smtp.to(admin.email, "A webhook endpoint was disabled on Hangar");
    const [mail] = await waitForMails(disabledMails);
    expect(mail!.text).toContain(`Deliveries to ${rec.url("/down")} in "${ws.name}" have failed for a day`);
    expect(mail!.text).toContain("The last attempt: The endpoint answered 500.");
    expect(mail!.text).toContain(`http://hangar.test/w/${ws.id}/settings/webhooks`);
    // Later sweeps change nothing and mail no one again; the EDITOR was never mailed.
    await env.rt.webhooks.sweep(new Date(t0.getTime() + 30 * HOUR));
    await mailsSettled(env);
    expect(disabledMails()).toHaveLength(1);
    expect(smtp.inbox.filter((m) => m.text.includes(ws.id) && m.to !== admin.email)).toEqual([]);

    // Enabled again, it starts afresh.
    const on = await c.patch(`/workspaces/${ws.id}/webhooks/${hook.id}`, { enabled: true });
    expect(on.json()).toMatchObject({ state: "enabled", disabled_reason: null, failing_since: null });
  });

  it("does not follow a redirect; Redeliver sends the same event again; the log pages", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const hook = await register(c, ws.id, "/moved", ["asset.created"]);
    rec.answerWith((h) =>
      h.path === "/moved" ? { status: 302, headers: { location: rec.url("/final") } } : { status: 200 },
    );
    const base = `/workspaces/${ws.id}/webhooks/${hook.id}`;
    const moved = (await c.post(`${base}/test`)).json() as WebhookDeliveryDetail;
    expect(moved).toMatchObject({ status: "failed", response_status: 302, attempts: 1 });
    expect(moved.error).toBe(`Redirect not followed (302 to ${rec.url("/final")}).`);
    expect(rec.on("/final")).toEqual([]);

    rec.answerWith(() => ({ status: 200, body: "thanks" }));
    const again = await c.post(`${base}/deliveries/${moved.id}/redeliver`);
    expect(again.statusCode, again.body).toBe(200);
    const re = again.json() as WebhookDeliveryDetail;
    expect(re).toMatchObject({
      status: "delivered",
      event_id: moved.event_id,
      redelivery_of: moved.id,
      request_body: moved.request_body,
      response_body: "thanks",
    });
    const hits = rec.on("/moved");
    expect(hits.map((h) => h.headers["hangar-event-id"])).toEqual([moved.event_id, moved.event_id]);
    expect(hits[1]!.body).toBe(hits[0]!.body);
    expect((await c.get(`${base}/deliveries/${re.id}`)).json()).toEqual(re);
    expect((await c.post(`${base}/deliveries/${hook.id}/redeliver`)).statusCode).toBe(404);

    await c.post(`${base}/test`);
    const page1 = (await c.get(`${base}/deliveries?limit=2`)).json();
    expect(page1.data).toHaveLength(2);
    expect(page1.next_cursor).not.toBeNull();
    const page2 = (await c.get(`${base}/deliveries?limit=2&before=${page1.next_cursor}`)).json();
    expect(page2.data.map((d: WebhookDelivery) => d.id)).toEqual([moved.id]);
    expect(page2.next_cursor).toBeNull();
    expect((await c.get(`${base}/deliveries?before=abc`)).statusCode).toBe(422);
  });
});
