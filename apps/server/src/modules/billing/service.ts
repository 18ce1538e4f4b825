import type {
  BillingInterval,
  BillingState,
  ChangePreview,
  CheckoutSessionState,
  Plan,
  SubscriptionStatus,
} from "@hangar/contract";
import type { Logger } from "pino";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace } from "../../platform/access.ts";
import type { Actor } from "../../platform/actor.ts";
import { AppError, conflict, invalid, notFound } from "../../platform/errors.ts";
import { effectivePlan } from "./limits.ts";
import type { PlanBook, PlanDefinition } from "./plans.ts";
import { BILLING } from "./policy.ts";
import { billingRepo } from "./repo.ts";
import type { Stripe } from "./stripe-client.ts";
import { hasLiveSubscription, subscriptionPatch } from "./subscription-state.ts";

export interface BillingDeps {
  db: Db;
  access: Access;
  log: Logger;
  book: PlanBook;
  /** Null: billing is off (no provider configured). */
  stripe: Stripe | null;
  publicUrl: string;
  graceDays: number;
}

type Price = { id: string; amount: number; currency: string };
const PRICE_CACHE_MS = 5 * 60_000;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A provider failure as our error model: a declined card is the caller's to fix, anything else is ours. */
export function providerError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; message?: string; statusCode?: number };
  if (e.type === "StripeCardError") return conflict(e.message ?? "The card was declined.");
  if (e.type === "StripeInvalidRequestError" && e.statusCode !== 404) {
    return conflict(`The payment provider refused the request: ${e.message ?? "invalid request"}`);
  }
  return new AppError("SERVICE_UNAVAILABLE", "The payment provider could not be reached. Try again in a moment.", {
    retryAfterSeconds: 10,
  });
}

export function createBillingService(deps: BillingDeps) {
  const { db, access, book, stripe } = deps;
  let prices: { at: number; byLookup: Map<string, Price> } | null = null;

  async function priceTable(): Promise<Map<string, Price>> {
    if (!stripe) return new Map();
    if (prices && Date.now() - prices.at < PRICE_CACHE_MS) return prices.byLookup;
    const keys = book.all.flatMap((p) => Object.values(p.lookup_keys)).filter((k): k is string => !!k);
    const byLookup = new Map<string, Price>();
    if (keys.length > 0) {
      const list = await stripe.prices.list({ lookup_keys: keys, active: true, limit: 100 });
      for (const p of list.data) {
        if (p.lookup_key) byLookup.set(p.lookup_key, { id: p.id, amount: p.unit_amount ?? 0, currency: p.currency });
      }
    }
    prices = { at: Date.now(), byLookup };
    return byLookup;
  }

  function planAnswer(p: PlanDefinition, table: Map<string, Price>): Plan {
    const price = (k?: string) => {
      const found = k ? table.get(k) : undefined;
      return found ? { amount: found.amount, currency: found.currency } : undefined;
    };
    return {
      key: p.key,
      name: p.name,
      limits: p.limits,
      prices: { month: price(p.lookup_keys.month), year: price(p.lookup_keys.year) },
    };
  }

  async function priceFor(planKey: string, interval: BillingInterval): Promise<{ plan: PlanDefinition; price: Price }> {
    const plan = book.get(planKey);
    if (!plan) throw invalid(`There is no plan "${planKey}".`, [{ field: "plan", message: "Unknown plan" }]);
    const lookup = plan.lookup_keys[interval];
    if (!lookup)
      throw invalid(`The ${plan.name} plan has no ${interval}ly price.`, [{ field: "interval", message: "No price" }]);
    const price = (await priceTable().catch((err) => Promise.reject(providerError(err)))).get(lookup);
    if (!price) throw conflict(`The payment provider has no active price with the lookup key "${lookup}".`);
    return { plan, price };
  }

  function requireStripe(): Stripe {
    if (!stripe)
      throw conflict("Billing is off on this server: no payment provider is configured, so nothing is limited.");
    return stripe;
  }

  async function state(workspaceId: string, canManage: boolean): Promise<BillingState> {
    const row = await billingRepo.get(db, workspaceId);
    const table = await priceTable().catch((err) => {
      deps.log.warn({ err: { message: (err as Error).message } }, "could not read prices from the payment provider");
      return new Map<string, Price>();
    });
    const storage = await billingRepo.storageBytes(db, workspaceId);
    const seats = await billingRepo.seats(db, workspaceId);
    return {
      enabled: stripe !== null,
      plan: planAnswer(stripe ? effectivePlan(book, row) : book.free, table),
      subscribed_plan: row?.plan_key ?? null,
      interval: row?.billing_interval ?? null,
      status: (row?.status ?? "none") as SubscriptionStatus,
      current_period_end: iso(row?.current_period_end ?? null),
      cancel_at_period_end: row?.cancel_at_period_end ?? false,
      past_due_since: iso(row?.past_due_since ?? null),
      limits_until: iso(row?.limits_until ?? null),
      usage: {
        storage_bytes: storage,
        members: seats.members,
        pending_invites: seats.pending,
        seats: seats.members + seats.pending,
      },
      plans: book.all.map((p) => planAnswer(p, table)),
      can_manage: canManage && stripe !== null,
    };
  }

  /** The live subscription of a workspace, for changes; 409 when there is none. */
  async function liveSubscription(s: Stripe, workspaceId: string) {
    const row = await billingRepo.get(db, workspaceId);
    if (!row || !hasLiveSubscription(row) || !row.subscription_id) {
      throw conflict("This workspace has no paid subscription to change: start one with a checkout.");
    }
    const sub = await s.subscriptions.retrieve(row.subscription_id).catch((err) => Promise.reject(providerError(err)));
    const item = sub.items.data[0];
    if (!item) throw conflict("The subscription has no item to change.");
    return { row, sub, item };
  }

  /**
   * Applies what the provider answered to a change we made, so the page shows it at once. It keeps
   * `state_at` (our clock is not the provider's): the change's own event, newer by the provider's
   * clock, still applies when it arrives and settles the state.
   */
  async function applyAnswer(workspaceId: string, sub: Stripe.Subscription) {
    await db.transaction().execute(async (tx) => {
      const row = await billingRepo.lock(tx, workspaceId);
      const patch = subscriptionPatch(book, row, sub, { at: row.state_at, graceDays: deps.graceDays });
      await billingRepo.update(tx, workspaceId, patch);
    });
  }

  async function manage(actor: Actor, workspaceId: string) {
    await access.require(actor, BILLING.manage, inWorkspace(workspaceId));
    return requireStripe();
  }

  async function sessionState(s: {
    workspace_id: string;
    plan_key: string;
    completed_at: Date | null;
    created_at: Date;
  }) {
    const row = await billingRepo.get(db, s.workspace_id);
    const active = !!s.completed_at && (row?.status === "active" || row?.status === "trialing");
    const expired = !active && Date.now() - s.created_at.getTime() > 24 * 3600_000;
    return {
      workspace_id: s.workspace_id,
      plan: s.plan_key,
      state: active ? ("active" as const) : expired ? ("expired" as const) : ("pending" as const),
    };
  }

  return {
    enabled: stripe !== null,
    async get(actor: Actor, workspaceId: string): Promise<BillingState> {
      const grant = await access.require(actor, BILLING.view, inWorkspace(workspaceId));
      return state(workspaceId, grant.kind === "member" && grant.role === "ADMIN");
    },

    async checkout(actor: Actor, workspaceId: string, body: { plan: string; interval: BillingInterval }) {
      const s = await manage(actor, workspaceId);
      const user = access.requireUser(actor);
      const { plan, price } = await priceFor(body.plan, body.interval);
      let row = await billingRepo.get(db, workspaceId);
      if (hasLiveSubscription(row)) {
        throw conflict("This workspace already has a subscription: change its plan instead.");
      }
      try {
        let customer = row?.customer_id ?? null;
        if (!customer) {
          const name = (await billingRepo.workspaceName(db, workspaceId))?.name ?? "Workspace";
          // One customer per workspace: the idempotency key makes two concurrent first checkouts share it.
          const created = await s.customers.create(
            { name, metadata: { workspace_id: workspaceId } },
            { idempotencyKey: `hangar-customer-${workspaceId}` },
          );
          row = await db.transaction().execute(async (tx) => {
            const locked = await billingRepo.lock(tx, workspaceId);
            if (!locked.customer_id) await billingRepo.update(tx, workspaceId, { customer_id: created.id });
            return { ...locked, customer_id: locked.customer_id ?? created.id };
          });
          customer = row.customer_id as string;
        }
        const base = `${deps.publicUrl}/w/${workspaceId}`;
        const session = await s.checkout.sessions.create({
          mode: "subscription",
          customer,
          client_reference_id: workspaceId,
          line_items: [{ price: price.id, quantity: 1 }],
          success_url: `${base}/subscription/success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${base}/settings/subscription`,
          metadata: { workspace_id: workspaceId, plan: plan.key },
          subscription_data: { metadata: { workspace_id: workspaceId } },
        });
        if (!session.url) throw conflict("The payment provider answered no checkout page.");
        await billingRepo.addCheckoutSession(db, {
          id: session.id,
          workspaceId,
          userId: user.userId,
          plan: plan.key,
          interval: body.interval,
        });
        return { url: session.url };
      } catch (err) {
        throw providerError(err);
      }
    },

    async checkoutSession(actor: Actor, workspaceId: string, sessionId: string): Promise<CheckoutSessionState> {
      await access.require(actor, BILLING.view, inWorkspace(workspaceId));
      const s = await billingRepo.checkoutSession(db, sessionId);
      if (!s || s.workspace_id !== workspaceId) throw notFound("Checkout not found.");
      return sessionState(s);
    },

    /** `/subscription/success` without a workspace in the URL: the session says which. */
    async sessionOwner(actor: Actor, sessionId: string): Promise<CheckoutSessionState> {
      const s = await billingRepo.checkoutSession(db, sessionId);
      if (!s) throw notFound("Checkout not found.");
      await access.require(actor, BILLING.view, inWorkspace(s.workspace_id));
      return sessionState(s);
    },

    async preview(
      actor: Actor,
      workspaceId: string,
      body: { plan: string; interval: BillingInterval },
    ): Promise<ChangePreview> {
      const s = await manage(actor, workspaceId);
      const { price } = await priceFor(body.plan, body.interval);
      const { sub, item } = await liveSubscription(s, workspaceId);
      if (item.price.id === price.id) throw conflict("The workspace is on this plan already.");
      const prorationDate = Math.floor(Date.now() / 1000);
      try {
        const inv = await s.invoices.createPreview({
          customer: typeof sub.customer === "string" ? sub.customer : sub.customer.id,
          subscription: sub.id,
          subscription_details: {
            items: [{ id: item.id, price: price.id }],
            proration_date: prorationDate,
            proration_behavior: "always_invoice",
          },
        });
        const sameInterval = item.price.recurring?.interval === body.interval;
        const next = sameInterval
          ? item.current_period_end
          : prorationDate + (body.interval === "year" ? 365 : 30) * 86_400;
        return {
          plan: body.plan,
          interval: body.interval,
          currency: inv.currency,
          amount_due_now: inv.amount_due,
          next_invoice_amount: price.amount,
          next_invoice_at: new Date(next * 1000).toISOString(),
          proration_date: prorationDate,
        };
      } catch (err) {
        throw providerError(err);
      }
    },

    async change(
      actor: Actor,
      workspaceId: string,
      body: { plan: string; interval: BillingInterval; proration_date: number },
    ): Promise<BillingState> {
      const s = await manage(actor, workspaceId);
      const { price } = await priceFor(body.plan, body.interval);
      const { sub, item } = await liveSubscription(s, workspaceId);
      if (item.price.id !== price.id) {
        try {
          const updated = await s.subscriptions.update(
            sub.id,
            {
              items: [{ id: item.id, price: price.id }],
              proration_behavior: "always_invoice",
              proration_date: body.proration_date,
              // A declined card refuses the change instead of leaving an unpaid upgrade behind.
              payment_behavior: "error_if_incomplete",
              cancel_at_period_end: false,
            },
            { idempotencyKey: `hangar-change-${sub.id}-${price.id}-${body.proration_date}` },
          );
          await applyAnswer(workspaceId, updated);
        } catch (err) {
          throw providerError(err);
        }
      }
      return state(workspaceId, true);
    },

    async setCancelAtPeriodEnd(actor: Actor, workspaceId: string, cancel: boolean): Promise<BillingState> {
      const s = await manage(actor, workspaceId);
      const { sub } = await liveSubscription(s, workspaceId);
      try {
        const updated = await s.subscriptions.update(sub.id, { cancel_at_period_end: cancel });
        await applyAnswer(workspaceId, updated);
      } catch (err) {
        throw providerError(err);
      }
      return state(workspaceId, true);
    },

    async portal(actor: Actor, workspaceId: string) {
      const s = await manage(actor, workspaceId);
      const row = await billingRepo.get(db, workspaceId);
      if (!row?.customer_id) throw conflict("This workspace has no billing account yet: start a subscription first.");
      try {
        const session = await s.billingPortal.sessions.create({
          customer: row.customer_id,
          return_url: `${deps.publicUrl}/w/${workspaceId}/settings/subscription`,
        });
        return { url: session.url };
      } catch (err) {
        throw providerError(err);
      }
    },
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
