import type { Db } from "../db/db.ts";
import { AppError } from "./errors.ts";
import { rateLimitRepo } from "./rate-limit-repo.ts";

export interface Limit {
  /** How many attempts a window allows. */
  max: number;
  windowSeconds: number;
}

/** Keys and their limits, judged together: an attempt passes only when every key has room. */
export type LimitEntries = ReadonlyArray<readonly [string, Limit]>;

/** A counted attempt: `refund` gives its slots back (for limits that count only failures). */
export interface Taken {
  keys: string[];
  /** The counting statement's time (text: to the microsecond): a refund never reaches into a later window. */
  at: string;
}

/**
 * Fixed-window counters in PostgreSQL, so every API process shares them (docs/architecture.md §1, §7).
 * Count first, then decide (issue 27): `take` counts the attempt on every key in one statement
 * (`rate_limit_take`, which locks the rows) and the decision is made on the counts it saw, so
 * parallel requests can never pass more than the limit between a check and a count.
 * Limits that count only failures (wrong passwords) take a slot before the work and `refund` it on
 * success: at most `max` guesses are ever judged in one window, even in flight at once.
 * The counters' SQL is in rate-limit-repo.ts (a platform table, so a platform repo).
 */
export function createRateLimiter(db: Db) {
  /** Counts the attempt on every key, or on none when one is full (then the seconds to wait). */
  type Took = { taken: Taken } | { retryAfter: number };
  async function take(entries: LimitEntries, countRefused = false): Promise<Took> {
    const keys = entries.map(([k]) => k);
    const row = await rateLimitRepo.take(
      db,
      keys,
      entries.map(([, l]) => l.max),
      entries.map(([, l]) => l.windowSeconds),
      countRefused,
    );
    return row.wait === null ? { taken: { keys, at: row.at } } : { retryAfter: row.wait };
  }

  return {
    /** Counts the attempt, or throws 429 (with Retry-After) with `detail` when any key is full. */
    async consume(entries: LimitEntries, detail: string): Promise<Taken> {
      const r = await take(entries);
      if ("retryAfter" in r) throw new AppError("RATE_LIMITED", detail, { retryAfterSeconds: r.retryAfter });
      return r.taken;
    },
    /**
     * Whether every key has room, counting the ask either way: for mails that go out or not without
     * telling the caller, so the counter shows every ask (nothing of it is an answer to the asker).
     */
    async allowed(entries: LimitEntries): Promise<boolean> {
      return "taken" in (await take(entries, true));
    },
    /**
     * Gives back an attempt's slots on `keys` (all of them by default), within the window it was taken
     * in. Only keys the attempt was counted on: a key it did not take is never lowered.
     */
    async refund(taken: Taken, keys: string[] = taken.keys): Promise<void> {
      const mine = keys.filter((k) => taken.keys.includes(k));
      if (mine.length === 0) return;
      await rateLimitRepo.refund(db, mine, taken.at);
    },
    /** Counts on a key that does not decide this attempt (it decides later ones). */
    async count(key: string, limit: Limit): Promise<void> {
      await rateLimitRepo.count(db, key, limit.windowSeconds);
    },
    async clear(key: string): Promise<void> {
      await rateLimitRepo.clear(db, key);
    },
    async purgeExpired(olderThanSeconds = 86_400): Promise<void> {
      await rateLimitRepo.purgeExpired(db, olderThanSeconds);
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
