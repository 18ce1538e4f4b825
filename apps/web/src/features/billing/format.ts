import { BILLING_INTERVALS, type BillingInterval } from "@hangar/contract";
/** Money and dates as the subscription pages show them (sizes: formatBytes in @hangar/contract). */
export function formatMoney(amount: number, currency: string) {
  return new Intl.NumberFormat(undefined, { style: "currency", currency: currency.toUpperCase() }).format(amount / 100);
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "long" });
export const formatDate = (iso: string | null) => (iso ? dateFormat.format(new Date(iso)) : "—");

export const STATUS_LABEL: Record<string, string> = {
  none: "No subscription",
  incomplete: "Payment pending",
  incomplete_expired: "Payment expired",
  trialing: "Trial",
  active: "Active",
  past_due: "Past due",
  canceled: "Canceled",
  unpaid: "Unpaid",
  paused: "Paused",
};

/**
 * The interval a URL names, or null. Checked by hand: production builds carry no zod
 * (lib/zod-stub.ts), so the contract's schemas cannot parse there.
 */
export function asInterval(value: string | null): BillingInterval | null {
  return (BILLING_INTERVALS as readonly string[]).includes(value ?? "") ? (value as BillingInterval) : null;
}
