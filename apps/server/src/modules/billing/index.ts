import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/db.ts";
import type { Access } from "../../platform/access.ts";
import { createLimits } from "./limits.ts";
import { DEFAULT_PLANS, planBook, readPlansFile } from "./plans.ts";
import { createBillingService } from "./service.ts";
import { createStripeClient } from "./stripe-client.ts";
import { createWebhookHandler } from "./webhook.ts";

export type { Limits } from "./limits.ts";
export type { BillingService } from "./service.ts";

/** Billing, wired from the configuration: off (no limits, no provider) without STRIPE_SECRET_KEY. */
export function createBilling(deps: { db: Db; access: Access; log: Logger; config: Config }) {
  const { config } = deps;
  const book = planBook(config.BILLING_PLANS_FILE ? readPlansFile(config.BILLING_PLANS_FILE) : DEFAULT_PLANS);
  const stripe = config.STRIPE_SECRET_KEY ? createStripeClient(config.STRIPE_SECRET_KEY, config.STRIPE_API_BASE) : null;
  const common = { db: deps.db, log: deps.log, book, stripe, graceDays: config.BILLING_GRACE_DAYS };
  return {
    book,
    limits: createLimits({ enabled: stripe !== null, book }),
    service: createBillingService({ ...common, access: deps.access, publicUrl: config.publicUrl }),
    webhook: createWebhookHandler({ ...common, secret: config.STRIPE_WEBHOOK_SECRET }),
  };
}
export type Billing = ReturnType<typeof createBilling>;
