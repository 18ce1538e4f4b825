import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingTestEnv } from "../../../test/billing-env.ts";
import { DECLINED_CARD, GOOD_CARD } from "../../../test/fake-stripe.ts";
import { type Client, type TestEnv, workspaceWith } from "../../../test/harness.ts";

/**
 * Checkout, webhook and subscription changes (issue 18) against the fake of Stripe's API, through
 * the official SDK: only its host differs from production.
 */
let b: Awaited<ReturnType<typeof billingTestEnv>>;
let env: TestEnv;
beforeAll(async () => {
  b = await billingTestEnv();
  env = b.env;
});
afterAll(() => b.close());

const sessionIdOf = (url: string) => /\/pay\/(cs_[A-Za-z0-9_]+)/.exec(url)?.[1] as string;
const state = async (c: Client, ws: string) => (await c.get(`/workspaces/${ws}/billing`)).json();

/** A workspace whose ADMIN paid for Team monthly on the fake's checkout page. */
async function subscribed() {
  const w = await workspaceWith(env, ["EDITOR"]);
  const res = await w.admin.client.post(`/workspaces/${w.ws.id}/billing/checkout`, { plan: "team", interval: "month" });
  expect(res.statusCode, res.body).toBe(200);
  const sessionId = sessionIdOf(res.json().url);
  expect(b.stripe.pay(sessionId, GOOD_CARD)).toMatchObject({ ok: true });
  await b.stripe.flush();
  const row = await env.rt.db
    .selectFrom("billing_subscriptions")
    .selectAll()
    .where("workspace_id", "=", w.ws.id)
    .executeTakeFirstOrThrow();
  return { ...w, sessionId, subscriptionId: row.subscription_id as string };
}

/** Sends an event by hand, signed like Stripe's (or as told), straight to the webhook. */
async function post(payload: string, signature?: string) {
  return env.app.inject({
    method: "POST",
    url: "/api/v1/billing/webhook",
    headers: { "content-type": "application/json", ...(signature ? { "stripe-signature": signature } : {}) },
    payload,
  });
}
function event(type: string, object: unknown, created: number) {
  return JSON.stringify({
    id: `evt_manual_${Math.random().toString(36).slice(2)}`,
    object: "event",
    type,
    created,
    data: { object },
  });
}

describe("checkout", () => {
  it("creates one customer per workspace and a subscription-mode session referencing the workspace", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR"]);
    const url = `/workspaces/${ws.id}/billing/checkout`;
    expect((await members.EDITOR!.client.post(url, { plan: "team", interval: "month" })).statusCode).toBe(403);
    expect((await admin.client.post(url, { plan: "nope", interval: "month" })).statusCode).toBe(422);
    expect((await admin.client.post(url, { plan: "free", interval: "month" })).statusCode).toBe(422);
    expect((await admin.client.post(url, { plan: "business", interval: "year" })).statusCode).toBe(422);
    const first = await admin.client.post(url, { plan: "team", interval: "month" });
    const second = await admin.client.post(url, { plan: "team", interval: "year" });
    expect(first.json().url).toMatch(new RegExp(`^${b.stripe.url}/pay/cs_`));
    const s1 = b.stripe.store.sessions.get(sessionIdOf(first.json().url));
    const s2 = b.stripe.store.sessions.get(sessionIdOf(second.json().url));
    expect(s1).toMatchObject({ mode: "subscription", client_reference_id: ws.id });
    expect(s1?.customer).toBe(s2?.customer);
    const customers = [...b.stripe.store.customers.values()].filter(
      (c) => (c.metadata as { workspace_id?: string }).workspace_id === ws.id,
    );
    expect(customers).toHaveLength(1);
    expect(String(s1?.success_url)).toBe(`http://hangar.test/w/${ws.id}/subscription/success?session_id=${s1?.id}`);
  });

  it("stays pending and changes nothing when the card is declined", async () => {
    const { ws, admin } = await workspaceWith(env);
    const res = await admin.client.post(`/workspaces/${ws.id}/billing/checkout`, { plan: "team", interval: "month" });
    const sessionId = sessionIdOf(res.json().url);
    expect(b.stripe.pay(sessionId, DECLINED_CARD)).toEqual({ ok: false, message: "Your card was declined." });
    await b.stripe.flush();
    expect(await state(admin.client, ws.id)).toMatchObject({ status: "none", plan: { key: "free" } });
    const s = await admin.client.get(`/workspaces/${ws.id}/billing/checkout/${sessionId}`);
    expect(s.json()).toMatchObject({ state: "pending", plan: "team" });
  });

  it("becomes active only through the webhook, then answers the paid plan's limits", async () => {
    const { ws, admin, members, sessionId } = await subscribed();
    const s = await state(members.EDITOR!.client, ws.id);
    expect(s).toMatchObject({
      status: "active",
      plan: { key: "team", limits: { seats: 12 } },
      interval: "month",
      cancel_at_period_end: false,
      can_manage: false,
    });
    expect(new Date(s.current_period_end).getTime()).toBeGreaterThan(Date.now() + 25 * 86_400_000);
    expect((await admin.client.get(`/workspaces/${ws.id}/billing/checkout/${sessionId}`)).json().state).toBe("active");
    // The workspace-less success page finds the workspace from the session; an outsider learns nothing.
    expect((await admin.client.get(`/billing/checkout/${sessionId}`)).json()).toMatchObject({ workspace_id: ws.id });
    const other = await workspaceWith(env);
    expect((await other.admin.client.get(`/billing/checkout/${sessionId}`)).statusCode).toBe(404);
    const again = await admin.client.post(`/workspaces/${ws.id}/billing/checkout`, { plan: "team", interval: "year" });
    expect(again.statusCode).toBe(409);
  });
});

describe("webhook", () => {
  it("refuses forged, tampered, stale and unsigned events with 400, and applies a replay only once", async () => {
    const { ws, admin, subscriptionId } = await subscribed();
    const sub = structuredClone(b.stripe.store.subscriptions.get(subscriptionId)) as Record<string, unknown>;
    sub.cancel_at_period_end = true;
    const payload = event("customer.subscription.updated", sub, Math.floor(Date.now() / 1000));
    expect(payload).toContain('"cancel_at_period_end":true');
    const forged = await post(payload, b.stripe.sign(payload, undefined, "whsec_someoneelse"));
    expect(forged.statusCode).toBe(400);
    expect(forged.json().detail).toMatch(/signature/i);
    const tampered = await post(
      payload.replace('"cancel_at_period_end":true', '"cancel_at_period_end":false'),
      b.stripe.sign(payload),
    );
    expect(tampered.statusCode).toBe(400);
    const stale = await post(payload, b.stripe.sign(payload, Math.floor(Date.now() / 1000) - 301));
    expect(stale.statusCode).toBe(400);
    expect(stale.json().detail).toMatch(/tolerance/i);
    expect((await post(payload)).statusCode).toBe(400);
    expect((await state(admin.client, ws.id)).cancel_at_period_end).toBe(false);

    const sig = b.stripe.sign(payload);
    const ok = await post(payload, sig);
    expect(ok.json()).toEqual({ received: true, duplicate: false });
    expect((await state(admin.client, ws.id)).cancel_at_period_end).toBe(true);
    // Resumed meanwhile (a newer state), then the first event is replayed: answered, not applied.
    await admin.client.post(`/workspaces/${ws.id}/billing/resume`);
    const replay = await post(payload, sig);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().duplicate).toBe(true);
    expect((await state(admin.client, ws.id)).cancel_at_period_end).toBe(false);
  });

  it("never lets an older subscription event overwrite a newer state, whatever the arrival order", async () => {
    const { ws, admin, subscriptionId } = await subscribed();
    const t = Math.floor(Date.now() / 1000) + 60;
    const base = structuredClone(b.stripe.store.subscriptions.get(subscriptionId)) as Record<string, unknown>;
    const newer = event("customer.subscription.updated", { ...base, status: "past_due" }, t + 10);
    const older = event("customer.subscription.updated", { ...base, status: "active" }, t);
    expect((await post(newer, b.stripe.sign(newer))).statusCode).toBe(200);
    expect((await post(older, b.stripe.sign(older))).json()).toEqual({ received: true, duplicate: false });
    const s = await state(admin.client, ws.id);
    expect(s.status).toBe("past_due");
    const deleted = event("customer.subscription.deleted", { ...base, status: "canceled" }, t + 20);
    const stillOlder = event("customer.subscription.updated", { ...base, status: "active" }, t + 15);
    await post(deleted, b.stripe.sign(deleted));
    await post(stillOlder, b.stripe.sign(stillOlder));
    expect(await state(admin.client, ws.id)).toMatchObject({ status: "canceled", plan: { key: "free" } });
  });

  it("applies each event id once", async () => {
    const { ws } = await subscribed();
    const rows = await env.rt.db
      .selectFrom("billing_events")
      .select(["id", "type"])
      .where("workspace_id", "=", ws.id)
      .execute();
    expect(rows.map((r) => r.type).sort()).toEqual([
      "checkout.session.completed",
      "customer.subscription.created",
      "invoice.paid",
    ]);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  });
});

describe("changes", () => {
  it("previews the proration and changes the plan with the same proration date", async () => {
    const { ws, admin, members, subscriptionId } = await subscribed();
    const url = `/workspaces/${ws.id}/billing/preview`;
    expect((await members.EDITOR!.client.post(url, { plan: "business", interval: "month" })).statusCode).toBe(403);
    const preview = await admin.client.post(url, { plan: "business", interval: "month" });
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json();
    // Nearly a whole month left: about 4500 − 1500 due now.
    expect(p.amount_due_now).toBeGreaterThan(2900);
    expect(p.amount_due_now).toBeLessThanOrEqual(3000);
    expect(p).toMatchObject({ plan: "business", currency: "usd", next_invoice_amount: 4500 });
    const changed = await admin.client.post(`/workspaces/${ws.id}/billing/change`, {
      plan: "business",
      interval: "month",
      proration_date: p.proration_date,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ plan: { key: "business" }, status: "active" });
    const update = b.stripe.requests
      .filter((r) => r.path === `/v1/subscriptions/${subscriptionId}` && r.method === "POST")
      .at(-1);
    expect(update?.body).toMatchObject({
      proration_date: String(p.proration_date),
      proration_behavior: "always_invoice",
    });
    await b.stripe.flush();
    expect((await state(admin.client, ws.id)).plan.key).toBe("business");
    // The proration invoice is the previewed amount.
    const invoices = [...b.stripe.store.invoices.values()].filter((i) => i.amount_due === p.amount_due_now);
    expect(invoices.length).toBeGreaterThan(0);
  });

  it("cancels at period end and resumes; the period's end returns the workspace to Free, deleting nothing", async () => {
    const { ws, admin, members, subscriptionId } = await subscribed();
    expect((await members.EDITOR!.client.post(`/workspaces/${ws.id}/billing/cancel`)).statusCode).toBe(403);
    const cancel = await admin.client.post(`/workspaces/${ws.id}/billing/cancel`);
    expect(cancel.json()).toMatchObject({ cancel_at_period_end: true, status: "active", plan: { key: "team" } });
    expect((await admin.client.post(`/workspaces/${ws.id}/billing/resume`)).json().cancel_at_period_end).toBe(false);
    await admin.client.post(`/workspaces/${ws.id}/billing/cancel`);
    await b.stripe.flush();
    b.stripe.endSubscription(subscriptionId);
    await b.stripe.flush();
    expect(await state(admin.client, ws.id)).toMatchObject({ status: "canceled", plan: { key: "free" } });
    expect((await admin.client.post(`/workspaces/${ws.id}/billing/resume`)).statusCode).toBe(409);
  });

  it("goes past due on a failed payment with the date limits return to Free, and back on payment", async () => {
    const { ws, admin, subscriptionId } = await subscribed();
    b.stripe.failRenewal(subscriptionId);
    await b.stripe.flush();
    const s = await state(admin.client, ws.id);
    expect(s).toMatchObject({ status: "past_due", plan: { key: "team" } });
    const grace = new Date(s.limits_until).getTime() - new Date(s.past_due_since).getTime();
    expect(grace).toBe(14 * 86_400_000);
    // After the grace date the free plan's limits apply (nothing is deleted).
    await env.rt.db
      .updateTable("billing_subscriptions")
      .set({ limits_until: new Date(Date.now() - 1000) })
      .where("workspace_id", "=", ws.id)
      .execute();
    expect((await state(admin.client, ws.id)).plan.key).toBe("free");
    const paid = event(
      "invoice.paid",
      { id: "in_x", object: "invoice", customer: b.stripe.store.subscriptions.get(subscriptionId)?.customer },
      Math.floor(Date.now() / 1000) + 1,
    );
    expect((await post(paid, b.stripe.sign(paid))).statusCode).toBe(200);
    expect(await state(admin.client, ws.id)).toMatchObject({
      status: "active",
      plan: { key: "team" },
      limits_until: null,
    });
  });

  it("opens a billing-portal session for the workspace's customer (ADMIN only)", async () => {
    const { ws, admin, members } = await subscribed();
    expect((await members.EDITOR!.client.post(`/workspaces/${ws.id}/billing/portal`)).statusCode).toBe(403);
    const res = await admin.client.post(`/workspaces/${ws.id}/billing/portal`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().url).toMatch(new RegExp(`^${b.stripe.url}/portal/bps_`));
  });
});
