import { sql } from "kysely";
import type { Db } from "../db/db.ts";

/**
 * The rate limiter's counters (table `rate_limits`, a platform table: rate-limit.ts decides, this
 * counts). Every statement is one round trip; `take` is the `rate_limit_take` function, which
 * locks the keys' rows, so a count and the decision on it cannot be split by a parallel request.
 */
export const rateLimitRepo = {
  /** Counts the attempt on every key, or on none when one is full: then `wait` is the seconds to wait. */
  async take(
    db: Db,
    keys: string[],
    max: number[],
    windowSeconds: number[],
    countRefused: boolean,
  ): Promise<{ wait: number | null; at: string }> {
    const res = await sql<{ wait: number | null; at: string }>`
      SELECT rate_limit_take(
        ${keys}::text[],
        ${max}::integer[],
        ${windowSeconds}::integer[],
        ${countRefused}
      ) AS wait, now()::text AS at`.execute(db);
    return res.rows[0]!;
  },
  /** One slot back on each key, in windows that began no later than `at` (the counting statement's time). */
  async refund(db: Db, keys: string[], at: string): Promise<void> {
    await db
      .updateTable("rate_limits")
      .set({ count: sql<number>`greatest(count - 1, 0)` })
      .where("key", "in", keys)
      .where("window_start", "<=", sql<Date>`${at}::timestamptz`)
      .execute();
  },
  /** One more on the key's current window (a new window when it has passed). */
  async count(db: Db, key: string, windowSeconds: number): Promise<void> {
    const interval = sql`make_interval(secs => ${windowSeconds})`;
    await sql`
      INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, now(), 1)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN rate_limits.window_start + ${interval} <= now() THEN 1 ELSE rate_limits.count + 1 END,
        window_start = CASE WHEN rate_limits.window_start + ${interval} <= now() THEN now() ELSE rate_limits.window_start END`.execute(
      db,
    );
  },
  async clear(db: Db, key: string): Promise<void> {
    await db.deleteFrom("rate_limits").where("key", "=", key).execute();
  },
  async purgeExpired(db: Db, olderThanSeconds: number): Promise<void> {
    await db
      .deleteFrom("rate_limits")
      .where("window_start", "<", sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`)
      .execute();
  },
};
