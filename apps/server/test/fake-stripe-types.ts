/** The fake Stripe's shapes and constants (fake-stripe.ts), shared with the tests that drive it. */
export type Obj = Record<string, unknown> & { id: string };
export type Deliver = (payload: string, signature: string) => Promise<number>;
export interface FakePrice {
  lookup_key: string;
  amount: number;
  interval: "month" | "year";
  currency?: string;
}

/** Stripe's test cards: the first is declined, the second pays. */
export const DECLINED_CARD = "4000000000000002";
export const GOOD_CARD = "4242424242424242";
export const now = () => Math.floor(Date.now() / 1000);
export const DAY = 86_400;
