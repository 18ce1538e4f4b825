import { createHash, randomBytes } from "node:crypto";

/**
 * The bearer secrets of issue 36, shared by workspace API keys (`hgr_`) and personal access tokens
 * (`hgp_`): 32 random bytes (256 bits) in base64url after the prefix, stored as their plain SHA-256,
 * not argon2id like passwords: a slow hash protects low-entropy secrets people choose from guessing,
 * and 256 random bits cannot be guessed, so a fast hash loses nothing and lets every request find its
 * key with one indexed lookup (as sessions and link tokens do).
 */
export const newSecret = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`;
export const secretHash = (secret: string) => createHash("sha256").update(secret).digest("hex");
/** A secret's shape (prefix and 43 base64url characters): anything else is refused before a query. */
export const secretShape = (secret: string, prefix: string) =>
  secret.startsWith(prefix) && /^[A-Za-z0-9_-]{43}$/.test(secret.slice(prefix.length));

export const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Whether a live secret's row has passed its expiry, by the database's clock read with it. */
export const expired = (row: { expires_at: Date | null; now: Date }) =>
  row.expires_at !== null && row.expires_at.getTime() <= row.now.getTime();

/** Whether a use should be recorded: at most once a minute per secret (the repo's condition makes it atomic). */
export const dueForTouch = (row: { last_used_at: Date | null; now: Date }) =>
  !row.last_used_at || row.now.getTime() - row.last_used_at.getTime() >= 60_000;

/** Requests one key or token may make per minute, across every process (the limiter's counters are rows). */
export const BEARER_LIMIT = { max: 600, windowSeconds: 60 };
