import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type FakeStripe, startFakeStripe } from "./fake-stripe.ts";
import { createTestEnv, type TestEnv } from "./harness.ts";

/** Small limits, so tests reach them with a few bytes and members. */
export const TEST_PLANS = {
  free_plan: "free",
  plans: [
    { key: "free", name: "Free", limits: { storage_bytes: 1000, seats: 3, max_upload_bytes: 500 } },
    {
      key: "team",
      name: "Team",
      limits: { storage_bytes: 100_000, seats: 12, max_upload_bytes: 50_000 },
      lookup_keys: { month: "test_team_month", year: "test_team_year" },
    },
    {
      key: "business",
      name: "Business",
      limits: { storage_bytes: 1_000_000, seats: 50, max_upload_bytes: 500_000 },
      lookup_keys: { month: "test_business_month" },
    },
  ],
};
export const TEST_PRICES = [
  { lookup_key: "test_team_month", amount: 1500, interval: "month" as const },
  { lookup_key: "test_team_year", amount: 15000, interval: "year" as const },
  { lookup_key: "test_business_month", amount: 4500, interval: "month" as const },
];

/** A Hangar test env with billing on, talking to a fresh fake of Stripe that delivers its events to it. */
export async function billingTestEnv(): Promise<{ env: TestEnv; stripe: FakeStripe; close(): Promise<void> }> {
  const plansFile = path.join(os.tmpdir(), `hangar-plans-${randomUUID()}.json`);
  await writeFile(plansFile, JSON.stringify(TEST_PLANS));
  const stripe = await startFakeStripe({ prices: TEST_PRICES });
  const env = await createTestEnv({ ...stripe.env, BILLING_PLANS_FILE: plansFile });
  stripe.setDeliver(async (payload, signature) => {
    const res = await env.app.inject({
      method: "POST",
      url: "/api/v1/billing/webhook",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      payload,
    });
    return res.statusCode;
  });
  return {
    env,
    stripe,
    async close() {
      await env.close();
      await stripe.close();
    },
  };
}
