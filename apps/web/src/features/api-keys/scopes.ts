import { API_PREFIX, type ApiKey, type ApiScope } from "@hangar/contract";

/** One line a scope: what a key with it may do (routeScope in the contract decides). */
export const SCOPE_DESCRIPTIONS: Record<ApiScope, string> = {
  "assets:read": "List, search, view and download assets, boards, fields and comments",
  "assets:write": "Upload, edit, move and delete assets, boards, versions and field values",
  "comments:write": "Write, edit and resolve comments",
  "shares:write": "Create and change share links and upload links",
  "reviews:write": "Request reviews and record decisions",
  admin: "Everything an admin can do, including members and settings",
};

export type KeyState = "active" | "expired" | "revoked";

export function keyState(key: Pick<ApiKey, "revoked_at" | "expires_at">, now = Date.now()): KeyState {
  if (key.revoked_at) return "revoked";
  if (key.expires_at && Date.parse(key.expires_at) <= now) return "expired";
  return "active";
}

/**
 * The end of the chosen day (`yyyy-mm-dd` from a date input) in the browser's time zone, as the
 * contract's ISO date-time: a key "expiring on the 1st" works through the 1st. Null for no date.
 */
export function expiryFromDate(day: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999).toISOString();
}

/** Today as a date input's value (local time): the earliest expiry offered. */
export function todayInput(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * What an integrator types first with a new key: list the workspace's assets (the listing is a POST
 * whose JSON body is the filter; `{}` is every asset, first page).
 */
export const curlExample = (secret: string, origin: string, workspaceId: string) =>
  `curl -H "Authorization: Bearer ${secret}" -H "Content-Type: application/json" -d '{}' ${origin}${API_PREFIX}/workspaces/${workspaceId}/assets`;

/** A personal access token's first call: the workspaces its user belongs to. */
export const tokenCurlExample = (secret: string, origin: string) =>
  `curl -H "Authorization: Bearer ${secret}" ${origin}${API_PREFIX}/workspaces`;

/** The expiries offered for a token (days); the contract allows at most a year. */
export const TOKEN_EXPIRY_DAYS = [7, 30, 90, 180, 365] as const;

/** The end of the day `days` from now, local time, as an ISO date-time within the year allowed. */
export function expiryInDays(days: number, now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days, 23, 59, 59, 999);
  // "In a year" ends today a year on, never a moment past the server's limit.
  const max = now.getTime() + days * 86_400_000;
  return new Date(Math.min(d.getTime(), days >= 365 ? max : d.getTime())).toISOString();
}
