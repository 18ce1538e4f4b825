import type { PlanBook } from "./plans.ts";
import type { SubscriptionPatch, SubscriptionRow } from "./repo.ts";
import type { Stripe } from "./stripe-client.ts";

const toDate = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);

/**
 * Our copy of a provider subscription, as a patch of the workspace's row. Past-due bookkeeping: the
 * first time it is seen past due, the grace clock starts (limits return to the free plan's at
 * `limits_until`); back to active clears it.
 */
export function subscriptionPatch(
  book: PlanBook,
  row: SubscriptionRow,
  sub: Stripe.Subscription,
  opts: { at: number; graceDays: number; now?: Date },
): SubscriptionPatch {
  const now = opts.now ?? new Date();
  const item = sub.items.data[0];
  const mapped = book.byLookupKey(item?.price.lookup_key);
  const patch: SubscriptionPatch = {
    subscription_id: sub.id,
    customer_id: typeof sub.customer === "string" ? sub.customer : sub.customer.id,
    plan_key: mapped?.plan.key ?? row.plan_key,
    billing_interval: mapped?.interval ?? row.billing_interval,
    status: sub.status,
    current_period_end: toDate(item?.current_period_end),
    cancel_at_period_end: sub.cancel_at_period_end,
    state_at: Math.max(opts.at, row.state_at),
  };
  Object.assign(patch, pastDuePatch(row, sub.status, now, opts.graceDays));
  return patch;
}

export function pastDuePatch(row: SubscriptionRow, status: string, now: Date, graceDays: number): SubscriptionPatch {
  if (status === "past_due" || status === "unpaid") {
    const since = row.past_due_since ?? now;
    return { past_due_since: since, limits_until: new Date(since.getTime() + graceDays * 86_400_000) };
  }
  return { past_due_since: null, limits_until: null };
}

export const ACTIVE_STATUSES = new Set(["active", "trialing", "past_due", "unpaid", "incomplete"]);
/** A workspace that has a live subscription changes it rather than checking out a second one. */
export const hasLiveSubscription = (row: SubscriptionRow | undefined) =>
  !!row?.subscription_id && ["active", "trialing", "past_due", "unpaid"].includes(row.status);
