import type { Logger } from "pino";
import type { Db } from "../../db/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { PlanBook } from "./plans.ts";
import { billingRepo } from "./repo.ts";
import { providerError } from "./service.ts";
import { type Stripe, WEBHOOK_TOLERANCE_SECONDS } from "./stripe-client.ts";
import { pastDuePatch, subscriptionPatch } from "./subscription-state.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const idOf = (v: string | { id: string } | null | undefined) => (v == null ? null : typeof v === "string" ? v : v.id);

/**
 * The provider's events (issue 18). Verified on the exact bytes against `Stripe-Signature` with a
 * five-minute tolerance (the SDK's `constructEvent`): forged or stale requests are refused 400 and
 * change nothing. Each event is recorded by id in the transaction that applies it, so a replay or a
 * retry is answered 200 and applied never again. Subscription state carries the event's time: an
 * older event never overwrites a newer state, whatever order they arrive in.
 */
export function createWebhookHandler(deps: {
  db: Db;
  log: Logger;
  book: PlanBook;
  stripe: Stripe | null;
  secret: string | undefined;
  graceDays: number;
}) {
  const { db, book, stripe } = deps;

  function verify(s: Stripe, raw: Buffer, signature: string | undefined): Stripe.Event {
    if (!signature || !deps.secret) throw new AppError("BAD_REQUEST", "The Stripe-Signature header is missing.");
    try {
      return s.webhooks.constructEvent(raw, signature, deps.secret, WEBHOOK_TOLERANCE_SECONDS);
    } catch (err) {
      throw new AppError("BAD_REQUEST", `Webhook signature verification failed: ${(err as Error).message}`);
    }
  }

  /** Which workspace an event is about: the reference we gave the provider, else our customer or subscription. */
  async function workspaceOf(event: Stripe.Event): Promise<string | null> {
    const obj = event.data.object as {
      client_reference_id?: string | null;
      metadata?: Record<string, string> | null;
      customer?: string | { id: string } | null;
      id?: string;
      object?: string;
      parent?: { subscription_details?: { subscription?: string | { id: string } } | null } | null;
    };
    const candidates = [obj.client_reference_id, obj.metadata?.workspace_id];
    for (const c of candidates) {
      if (c && UUID.test(c) && (await billingRepo.workspaceName(db, c))) return c;
    }
    if (obj.object === "subscription" && obj.id) {
      const bySub = await billingRepo.bySubscription(db, obj.id);
      if (bySub) return bySub.workspace_id;
    }
    const subId = idOf(obj.parent?.subscription_details?.subscription);
    if (subId) {
      const bySub = await billingRepo.bySubscription(db, subId);
      if (bySub) return bySub.workspace_id;
    }
    const customer = idOf(obj.customer);
    return customer ? ((await billingRepo.byCustomer(db, customer))?.workspace_id ?? null) : null;
  }

  return async function handle(raw: Buffer, signature: string | undefined) {
    if (!stripe) throw notFound("Billing is off on this server.");
    const event = verify(stripe, raw, signature);
    const workspaceId = await workspaceOf(event);
    // A completed checkout names its subscription only by id: read it first (outside the transaction).
    let checkoutSub: Stripe.Subscription | null = null;
    if (event.type === "checkout.session.completed" && workspaceId) {
      const subId = idOf(event.data.object.subscription);
      if (subId)
        checkoutSub = await stripe.subscriptions.retrieve(subId).catch((err) => Promise.reject(providerError(err)));
    }
    const applied = await db.transaction().execute(async (tx) => {
      if (!(await billingRepo.recordEvent(tx, { ...event, workspaceId }))) return false;
      if (!workspaceId) {
        deps.log.info({ event: event.id, type: event.type }, "billing event for no workspace of ours: ignored");
        return true;
      }
      const row = await billingRepo.lock(tx, workspaceId);
      const at = event.created;
      const opts = { at, graceDays: deps.graceDays };
      switch (event.type) {
        case "checkout.session.completed": {
          const session = event.data.object;
          await billingRepo.completeCheckoutSession(tx, session.id);
          if (checkoutSub && at >= row.state_at) {
            await billingRepo.update(tx, workspaceId, subscriptionPatch(book, row, checkoutSub, opts));
          } else if (!row.customer_id && session.customer) {
            await billingRepo.update(tx, workspaceId, { customer_id: idOf(session.customer) });
          }
          break;
        }
        case "customer.subscription.created":
        case "customer.subscription.updated": {
          if (at < row.state_at) break; // older than the state we hold
          await billingRepo.update(tx, workspaceId, subscriptionPatch(book, row, event.data.object, opts));
          break;
        }
        case "customer.subscription.deleted": {
          if (at < row.state_at) break;
          const patch = subscriptionPatch(book, row, event.data.object, opts);
          await billingRepo.update(tx, workspaceId, {
            ...patch,
            status: "canceled",
            cancel_at_period_end: false,
            past_due_since: null,
            limits_until: null,
          });
          break;
        }
        case "invoice.paid": {
          if (at < row.state_at || !["past_due", "unpaid"].includes(row.status)) break;
          await billingRepo.update(tx, workspaceId, {
            status: "active",
            state_at: at,
            ...pastDuePatch(row, "active", new Date(), deps.graceDays),
          });
          break;
        }
        case "invoice.payment_failed": {
          if (at < row.state_at || !["active", "trialing", "past_due"].includes(row.status)) break;
          const now = new Date(at * 1000);
          await billingRepo.update(tx, workspaceId, {
            status: "past_due",
            state_at: at,
            ...pastDuePatch(row, "past_due", now, deps.graceDays),
          });
          break;
        }
        default:
          break;
      }
      return true;
    });
    return { received: true as const, duplicate: !applied };
  };
}
