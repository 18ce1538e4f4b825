import type { UserRow } from "../../db/types.ts";
import type { Limit } from "../../platform/rate-limit.ts";
import type { AuditRecord } from "../audit/index.ts";

/**
 * Failed sign-ins are throttled where the guesses come from, not on the account as such: per
 * (account, address) a handful of tries, per address more. A guesser on one address is stopped after
 * LOGIN_LIMIT_ACCOUNT tries and so adds at most that many to the account-wide count; only guesses
 * from many addresses reach LOGIN_LIMIT_ACCOUNT_ANY, and the owner passes that one from a device
 * they signed in on before (a signed device cookie). No lock is indefinitely renewable by an
 * attacker against the owner's known device or address.
 */
export const LOGIN_LIMIT_ACCOUNT: Limit = { max: 8, windowSeconds: 10 * 60 };
export const LOGIN_LIMIT_IP: Limit = { max: 40, windowSeconds: 10 * 60 };
export const LOGIN_LIMIT_ACCOUNT_ANY: Limit = { max: 30, windowSeconds: 10 * 60 };

/** The audit row of a sign-in (by password or through single sign-on). */
export const signedIn = (user: UserRow, method: "password" | "sso"): AuditRecord => ({
  workspaceId: null,
  userId: user.id,
  action: "account.signed_in",
  object: { type: "account", id: user.id, name: user.email },
  actor: {
    kind: "member",
    id: user.id,
    name: [user.first_name, user.last_name].filter(Boolean).join(" ") || user.email,
  },
  ...(method === "sso" ? { changes: { method: "sso" } } : {}),
});

/** The audit row of a refused sign-in: the address tried, the account when one has it, and why (SSO). */
export const signInFailed = (
  email: string | null,
  userId: string | null,
  changes?: Record<string, unknown>,
): AuditRecord => ({
  workspaceId: null,
  userId,
  action: "account.sign_in_failed",
  object: { type: "account", id: userId, name: email },
  actor: { kind: "anonymous", id: null, name: email },
  ...(changes ? { changes } : {}),
});
