import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { badParam, decodeForm, missing, StripeFakeError, stripeSignature } from "./fake-stripe-form.ts";
import { servePage } from "./fake-stripe-pages.ts";
import { DAY, DECLINED_CARD, type Deliver, type FakePrice, GOOD_CARD, now, type Obj } from "./fake-stripe-types.ts";

/**
 * A fake of the part of Stripe's HTTP API Hangar calls, for tests only (nothing here ships): a small
 * stateful server on 127.0.0.1 that takes the SDK's form-encoded requests, answers Stripe's object
 * and error shapes, honours idempotency keys, serves a hosted checkout page a browser can pay on with
 * Stripe's test cards (4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined), and sends
 * events signed exactly as Stripe signs them to `deliver`.
 */
export { DECLINED_CARD, type Deliver, type FakePrice, GOOD_CARD } from "./fake-stripe-types.ts";

export async function startFakeStripe(opts: { prices: FakePrice[]; webhookSecret?: string; deliver?: Deliver }) {
  const secretKey = `sk_test_fake${randomBytes(8).toString("hex")}`;
  const webhookSecret = opts.webhookSecret ?? `whsec_fake${randomBytes(12).toString("hex")}`;
  let deliver: Deliver | undefined = opts.deliver;
  let seq = 0;
  const newId = (prefix: string) => `${prefix}_test_${(++seq).toString(36)}${randomBytes(6).toString("hex")}`;
  const store = {
    prices: new Map<string, Obj>(),
    customers: new Map<string, Obj>(),
    sessions: new Map<string, Obj>(),
    subscriptions: new Map<string, Obj>(),
    invoices: new Map<string, Obj>(),
  };
  /** Cards on file per customer (the last one paid with); a declined card makes charges fail. */
  const cards = new Map<string, string>();
  const idempotency = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  const requests: Array<{ method: string; path: string; body: Record<string, unknown> }> = [];
  const events: Obj[] = [];
  let outbox: Promise<unknown> = Promise.resolve();

  for (const p of opts.prices) {
    const id = newId("price");
    store.prices.set(id, {
      id,
      object: "price",
      active: true,
      currency: p.currency ?? "usd",
      unit_amount: p.amount,
      lookup_key: p.lookup_key,
      recurring: { interval: p.interval, interval_count: 1 },
      type: "recurring",
      product: "prod_test_hangar",
      livemode: false,
    });
  }
  const priceOf = (id: unknown) => {
    const p = store.prices.get(String(id));
    if (!p) throw missing("price", String(id), "price");
    return p as Obj & { unit_amount: number; currency: string; recurring: { interval: "month" | "year" } };
  };
  const get = (map: Map<string, Obj>, what: string, id: string) => {
    const o = map.get(id);
    if (!o) throw missing(what, id);
    return o;
  };

  /** Queues an event; deliveries happen one after another, in creation order (tests await `flush`). */
  function emit(type: string, object: unknown, created = now()) {
    const event = {
      id: newId("evt"),
      object: "event",
      api_version: "2026-10-28.endive",
      created,
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    events.push(event);
    outbox = outbox.then(async () => {
      if (!deliver) return;
      const payload = JSON.stringify(event, null, 2);
      await deliver(payload, stripeSignature(payload, webhookSecret)).catch(() => undefined);
    });
    return event;
  }

  function invoiceFor(sub: Obj, amount: number, status: "paid" | "open", lines: unknown[]) {
    const id = newId("in");
    const invoice = {
      id,
      object: "invoice",
      customer: sub.customer,
      currency: "usd",
      amount_due: amount,
      amount_paid: status === "paid" ? amount : 0,
      total: amount,
      status,
      lines: { object: "list", data: lines, has_more: false },
      parent: { type: "subscription_details", subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      period_end: now(),
      next_payment_attempt: status === "open" ? now() + 3 * DAY : null,
      created: now(),
    };
    store.invoices.set(id, invoice);
    return invoice;
  }

  const itemOf = (sub: Obj) =>
    (sub.items as { data: Array<Obj & { price: Obj; current_period_start: number; current_period_end: number }> })
      .data[0] as Obj & {
      price: Obj & { unit_amount: number };
      current_period_start: number;
      current_period_end: number;
    };

  function createSubscription(session: Obj, priceId: string) {
    const price = priceOf(priceId);
    const start = now();
    const end = start + (price.recurring.interval === "year" ? 365 : 30) * DAY;
    const id = newId("sub");
    const sub = {
      id,
      object: "subscription",
      customer: session.customer,
      status: "active",
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      metadata: (session.subscription_data as { metadata?: object } | undefined)?.metadata ?? {},
      items: {
        object: "list",
        data: [
          {
            id: newId("si"),
            object: "subscription_item",
            price,
            quantity: 1,
            current_period_start: start,
            current_period_end: end,
          },
        ],
      },
      created: start,
      livemode: false,
    };
    store.subscriptions.set(id, sub);
    return sub;
  }

  /** The proration Stripe would compute for moving `sub` to `newPrice` at `date` (seconds). */
  function proration(sub: Obj, newPrice: ReturnType<typeof priceOf>, date: number) {
    const item = itemOf(sub);
    const { current_period_start: start, current_period_end: end } = item;
    if (date < start || date > end) {
      throw badParam("proration_date", "The proration date must be within the current billing period.");
    }
    const left = (end - date) / (end - start);
    const old = item.price as Obj & { unit_amount: number; recurring: { interval: string } };
    const credit = -Math.round(old.unit_amount * left);
    const sameInterval = old.recurring.interval === newPrice.recurring.interval;
    const charge = sameInterval ? Math.round(newPrice.unit_amount * left) : newPrice.unit_amount;
    const line = (amount: number, description: string, price: Obj) => ({
      id: newId("il"),
      object: "line_item",
      amount,
      currency: "usd",
      description,
      pricing: { price_details: { price: price.id } },
      parent: {
        type: "subscription_item_details",
        subscription_item_details: { proration: true, subscription: sub.id },
      },
    });
    const lines = [line(credit, "Unused time", old), line(charge, "Remaining time", newPrice)];
    return { lines, total: credit + charge, sameInterval };
  }

  async function api(method: string, path: string, body: Record<string, unknown>): Promise<unknown> {
    const seg = path.split("/").filter(Boolean).slice(1); // after "v1"
    const route = `${method} /${seg.map((s, i) => (i > 0 && /_/.test(s) && !["create_preview"].includes(s) ? ":id" : s)).join("/")}`;
    switch (route) {
      case "GET /prices": {
        const keys = (body.lookup_keys as string[] | undefined) ?? [];
        const data = [...store.prices.values()].filter((p) => keys.length === 0 || keys.includes(String(p.lookup_key)));
        return { object: "list", data, has_more: false, url: "/v1/prices" };
      }
      case "POST /customers": {
        const id = newId("cus");
        const c = { id, object: "customer", name: body.name ?? null, metadata: body.metadata ?? {}, created: now() };
        store.customers.set(id, c);
        return c;
      }
      case "GET /customers/:id":
        return get(store.customers, "customer", seg[1] as string);
      case "POST /checkout/sessions": {
        if (body.mode !== "subscription") throw badParam("mode", "Only subscription mode is faked.");
        get(store.customers, "customer", String(body.customer));
        const items = (body.line_items as Array<{ price: string }> | undefined) ?? [];
        if (items.length !== 1) throw badParam("line_items", "Exactly one line item is faked.");
        priceOf(items[0]?.price);
        const id = newId("cs");
        const session = {
          id,
          object: "checkout.session",
          mode: "subscription",
          status: "open",
          payment_status: "unpaid",
          customer: body.customer,
          client_reference_id: body.client_reference_id ?? null,
          metadata: body.metadata ?? {},
          subscription_data: body.subscription_data ?? {},
          success_url: String(body.success_url).replace("{CHECKOUT_SESSION_ID}", id),
          cancel_url: body.cancel_url,
          subscription: null,
          url: `${base}/pay/${id}`,
          line_items: items,
          created: now(),
          expires_at: now() + DAY,
        };
        store.sessions.set(id, session);
        return session;
      }
      case "GET /checkout/sessions/:id":
        return get(store.sessions, "checkout.session", seg[2] as string);
      case "GET /subscriptions/:id":
        return get(store.subscriptions, "subscription", seg[1] as string);
      case "POST /subscriptions/:id":
        return updateSubscription(get(store.subscriptions, "subscription", seg[1] as string), body);
      case "POST /invoices/create_preview": {
        const sub = get(store.subscriptions, "subscription", String(body.subscription));
        const details = (body.subscription_details ?? {}) as {
          items?: Array<{ price: string }>;
          proration_date?: string;
        };
        const price = priceOf(details.items?.[0]?.price);
        const { lines, total } = proration(sub, price, Number(details.proration_date ?? now()));
        return { ...invoiceFor(sub, Math.max(0, total), "open", lines), id: null, status: "draft" };
      }
      case "POST /billing_portal/sessions": {
        get(store.customers, "customer", String(body.customer));
        const id = newId("bps");
        return {
          id,
          object: "billing_portal.session",
          customer: body.customer,
          return_url: body.return_url,
          url: `${base}/portal/${id}?return=${encodeURIComponent(String(body.return_url))}`,
        };
      }
      default:
        throw new StripeFakeError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path}).`);
    }
  }

  function updateSubscription(sub: Obj, body: Record<string, unknown>) {
    if (body.cancel_at_period_end !== undefined) sub.cancel_at_period_end = body.cancel_at_period_end === "true";
    const items = body.items as Array<{ id: string; price: string }> | undefined;
    if (items?.[0]?.price) {
      const price = priceOf(items[0].price);
      const item = itemOf(sub);
      if (items[0].id !== item.id) throw missing("subscription_item", items[0].id, "items[0][id]");
      const date = Number(body.proration_date ?? now());
      const { lines, total, sameInterval } = proration(sub, price, date);
      const declined = cards.get(String(sub.customer)) === DECLINED_CARD;
      if (total > 0 && declined && body.payment_behavior === "error_if_incomplete") {
        throw new StripeFakeError(402, "card_error", "Your card was declined.", {
          code: "card_declined",
          decline_code: "generic_decline",
        });
      }
      item.price = price;
      if (!sameInterval) {
        item.current_period_start = now();
        item.current_period_end = now() + (price.recurring.interval === "year" ? 365 : 30) * DAY;
      }
      if (body.proration_behavior === "always_invoice") {
        const inv = invoiceFor(sub, Math.max(0, total), "paid", lines);
        emit("invoice.paid", inv);
      }
    }
    emit("customer.subscription.updated", sub);
    return sub;
  }

  /** The hosted page's payment: a good card creates the subscription and sends Stripe's events. */
  function pay(session: Obj, card: string): { ok: true; redirect: string } | { ok: false; message: string } {
    const digits = card.replace(/\D/g, "");
    if (session.status !== "open") return { ok: false, message: "This checkout session is no longer open." };
    if (digits === DECLINED_CARD) return { ok: false, message: "Your card was declined." };
    if (digits !== GOOD_CARD) return { ok: false, message: "Your card number is invalid. Use a test card." };
    cards.set(String(session.customer), digits);
    const sub = createSubscription(session, (session.line_items as Array<{ price: string }>)[0]?.price as string);
    Object.assign(session, { status: "complete", payment_status: "paid", subscription: sub.id });
    const inv = invoiceFor(sub, itemOf(sub).price.unit_amount, "paid", []);
    emit("customer.subscription.created", sub);
    emit("invoice.paid", inv);
    emit("checkout.session.completed", session);
    return { ok: true, redirect: String(session.success_url) };
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { type: "api_error", message: String(err) } }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? "/", base);
    const text = req.method === "GET" ? url.search.slice(1) : Buffer.concat(chunks).toString("utf8");
    const form = decodeForm(text);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", "request-id": newId("req"), ...headers });
      res.end(JSON.stringify(body));
    };
    if (url.pathname.startsWith("/pay/") || url.pathname.startsWith("/portal/")) {
      return servePage(req.method ?? "GET", url, form, res, {
        session: (id) => store.sessions.get(id),
        priceOf,
        pay,
      });
    }
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(401, { error: { type: "invalid_request_error", message: "Invalid API Key provided." } });
    }
    requests.push({ method: req.method ?? "GET", path: url.pathname, body: form });
    const key = req.headers["idempotency-key"];
    const fingerprint = `${req.method} ${url.pathname} ${text}`;
    if (typeof key === "string" && req.method === "POST") {
      const seen = idempotency.get(key);
      if (seen && seen.fingerprint !== fingerprint) {
        return send(400, {
          error: {
            type: "idempotency_error",
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
          },
        });
      }
      if (seen) return send(seen.status, seen.body, { "idempotent-replayed": "true" });
    }
    let status = 200;
    let answer: unknown;
    try {
      answer = await api(req.method ?? "GET", url.pathname, form);
    } catch (err) {
      if (!(err instanceof StripeFakeError)) throw err;
      status = err.status;
      answer = err.body;
    }
    if (typeof key === "string" && req.method === "POST") idempotency.set(key, { fingerprint, status, body: answer });
    send(status, answer);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    secretKey,
    webhookSecret,
    /** The settings a Hangar process needs to use this fake. */
    env: { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_BASE: base },
    store,
    requests,
    events,
    setDeliver(d: Deliver | undefined) {
      deliver = d;
    },
    /** Resolves once every event sent so far has been delivered (and answered). */
    flush: () => outbox.then(() => undefined),
    emit,
    pay: (sessionId: string, card: string) => pay(get(store.sessions, "checkout.session", sessionId), card),
    sign: (payload: string, timestamp?: number, secret = webhookSecret) => stripeSignature(payload, secret, timestamp),
    /** A renewal whose charge fails: the invoice stays open and the subscription goes past due. */
    failRenewal(subscriptionId: string) {
      const sub = get(store.subscriptions, "subscription", subscriptionId);
      const inv = invoiceFor(sub, itemOf(sub).price.unit_amount, "open", []);
      sub.status = "past_due";
      emit("invoice.payment_failed", inv);
      emit("customer.subscription.updated", sub);
    },
    /** The period ends on a subscription set to cancel: Stripe deletes it. */
    endSubscription(subscriptionId: string) {
      const sub = get(store.subscriptions, "subscription", subscriptionId);
      Object.assign(sub, { status: "canceled", canceled_at: now() });
      emit("customer.subscription.deleted", sub);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;
