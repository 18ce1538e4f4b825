import { createHash } from "node:crypto";
import { newToken, safeEqual } from "./tokens.ts";

const RANDOM_CHARS = 32; // 24 random bytes in base64url

const bindingOf = (sessionToken: string, random: string) =>
  createHash("sha256").update(`csrf\n${sessionToken}\n${random}`).digest("base64url").slice(0, 32);

/**
 * A CSRF token bound to the session it was issued for: random part plus a digest of it with the
 * session token (HttpOnly, unknown to scripts and to anyone who can only plant cookies). Issued
 * without a session, it is the random part alone. Only URL-safe characters, so the cookie and
 * header carry it as is.
 */
export function newCsrfToken(sessionToken: string | undefined): string {
  const random = newToken(24);
  return sessionToken ? random + bindingOf(sessionToken, random) : random;
}

/** True when `token` was issued for this session; a token from before sign-in must be fetched anew. */
export function csrfBoundTo(token: string, sessionToken: string | undefined): boolean {
  if (!sessionToken || token.length !== RANDOM_CHARS * 2) return false;
  const random = token.slice(0, RANDOM_CHARS);
  return safeEqual(token.slice(RANDOM_CHARS), bindingOf(sessionToken, random));
}
