import { z } from "zod";
import { Id } from "./common.ts";

/**
 * Subscription and checkout (issue 18, docs/architecture.md §9). Plans and their limits are data (the server's
 * default set, or the operator's `BILLING_PLANS_FILE`); prices come from the payment provider by
 * lookup key. With no provider configured billing is off and nothing is limited.
 */
export const BILLING_INTERVALS = ["month", "year"] as const;
export const BillingInterval = z.enum(BILLING_INTERVALS);
export type BillingInterval = z.infer<typeof BillingInterval>;

/** Plan keys are short lower-case words (`free`, `team`, …), chosen by the plan data. */
export const PlanKey = z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, "a plan key is a short lower-case word");

export const PlanLimits = z.object({
  /** Bytes of originals the workspace may hold (trashed assets count until purged). */
  storage_bytes: z.number().int().nonnegative(),
  /** Members plus pending invitations. */
  seats: z.number().int().positive(),
  /** The largest single file. */
  max_upload_bytes: z.number().int().positive(),
});
export type PlanLimits = z.infer<typeof PlanLimits>;

export const PlanPrice = z.object({ amount: z.number().int(), currency: z.string() });
export const Plan = z.object({
  key: PlanKey,
  name: z.string(),
  limits: PlanLimits,
  /** What the provider charges per interval; absent for the free plan or when billing is off. */
  prices: z.object({ month: PlanPrice.optional(), year: PlanPrice.optional() }),
});
export type Plan = z.infer<typeof Plan>;

/**
 * Our side of the provider's subscription: `none` (never subscribed), the provider's own states,
 * or `canceled`. Limits follow the plan while active or trialing, and while past due until
 * `limits_until`; otherwise the free plan's.
 */
export const SubscriptionStatus = z.enum([
  "none",
  "incomplete",
  "incomplete_expired",
  "trialing",
  "active",
  "past_due",
  "canceled",
  "unpaid",
  "paused",
]);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

export const BillingUsage = z.object({
  storage_bytes: z.number(),
  members: z.number().int(),
  pending_invites: z.number().int(),
  /** members + pending_invites */
  seats: z.number().int(),
});

export const BillingState = z.object({
  /** False when no payment provider is configured: nothing is limited. */
  enabled: z.boolean(),
  /** The plan whose limits apply now (free when unpaid or canceled). */
  plan: Plan,
  /** The plan the subscription is for (may differ from `plan` once past due beyond the grace). */
  subscribed_plan: PlanKey.nullable(),
  interval: BillingInterval.nullable(),
  status: SubscriptionStatus,
  current_period_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  past_due_since: z.string().nullable(),
  /** While past due: when the limits return to the free plan's. */
  limits_until: z.string().nullable(),
  usage: BillingUsage,
  plans: z.array(Plan),
  /** Whether the caller may change the subscription (ADMIN and billing on). */
  can_manage: z.boolean(),
});
export type BillingState = z.infer<typeof BillingState>;

export const CheckoutBody = z.object({ plan: PlanKey, interval: BillingInterval });
export type CheckoutBody = z.infer<typeof CheckoutBody>;
export const RedirectAnswer = z.object({ url: z.url() });
export type RedirectAnswer = z.infer<typeof RedirectAnswer>;

export const ChangePreviewBody = z.object({ plan: PlanKey, interval: BillingInterval });
export const ChangePreview = z.object({
  plan: PlanKey,
  interval: BillingInterval,
  currency: z.string(),
  /** Charged at once for the rest of the current period (prorated). */
  amount_due_now: z.number().int(),
  /** The next regular invoice on the new plan, and when. */
  next_invoice_amount: z.number().int(),
  next_invoice_at: z.string().nullable(),
  /** Send it back with the change, so the provider prorates exactly as previewed. */
  proration_date: z.number().int(),
});
export type ChangePreview = z.infer<typeof ChangePreview>;
export const ChangeBody = ChangePreviewBody.extend({ proration_date: z.number().int().positive() });
export type ChangeBody = z.infer<typeof ChangeBody>;

export const CheckoutSessionParams = z.object({ sessionId: z.string().regex(/^cs_[A-Za-z0-9_]{1,200}$/) });
export const WorkspaceCheckoutSessionParams = CheckoutSessionParams.extend({ id: Id });
/** Where a checkout stands on our side (the webhook decides, never the redirect). */
export const CheckoutSessionState = z.object({
  workspace_id: Id,
  plan: PlanKey,
  /** `pending` until the provider's webhook made the subscription active here. */
  state: z.enum(["pending", "active", "expired"]),
});
export type CheckoutSessionState = z.infer<typeof CheckoutSessionState>;

export const WebhookAnswer = z.object({ received: z.literal(true), duplicate: z.boolean() });

/** The error a refused upload or invitation answers (402, code PLAN_LIMIT). */
export const PLAN_LIMIT_CODE = "PLAN_LIMIT" as const;
