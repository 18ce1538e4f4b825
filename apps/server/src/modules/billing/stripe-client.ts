import Stripe from "stripe";

/**
 * The official SDK, pointed at api.stripe.com, or at `STRIPE_API_BASE` (the test tree's fake of
 * Stripe's HTTP API): only the host changes, every request and answer goes through the same SDK.
 */
export function createStripeClient(secretKey: string, apiBase?: string): Stripe {
  const base = apiBase ? new URL(apiBase) : undefined;
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(base
      ? {
          protocol: base.protocol === "http:" ? "http" : "https",
          host: base.hostname,
          port: base.port || (base.protocol === "http:" ? 80 : 443),
        }
      : {}),
  });
}
export type { Stripe };

/** Webhooks older than this (by their signed timestamp) are refused as stale or replayed. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
