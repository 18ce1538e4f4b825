import { sql } from "kysely";
import type { Db } from "../db/db.ts";
import { AppError } from "./errors.ts";

export interface Limit {
  /** How many hits a window allows. */
  max: number;
  windowSeconds: number;
}

/**
 * Fixed-window counters in PostgreSQL, so every API process shares them (DESIGN.md §1, §7).
 * SQL lives here rather than in a feature repo because this is a platform table.
 */
export function createRateLimiter(db: Db) {
  async function peek(key: string, limit: Limit): Promise<number | null> {
    const row = await db
      .selectFrom("rate_limits")
      .select([
        "count",
        sql<number>`extract(epoch from (window_start + make_interval(secs => ${limit.windowSeconds}) - now()))`.as(
          "left",
        ),
      ])
      .where("key", "=", key)
      .executeTakeFirst();
    if (!row || row.left <= 0 || row.count < limit.max) return null;
    return Math.max(1, Math.ceil(row.left));
  }

  return {
    /** Throws 429 (with Retry-After) when any key is over its limit; counts nothing. */
    async check(entries: Array<[string, Limit]>, detail: string): Promise<void> {
      for (const [key, limit] of entries) {
        const retryAfter = await peek(key, limit);
        if (retryAfter !== null) throw new AppError("RATE_LIMITED", detail, { retryAfterSeconds: retryAfter });
      }
    },
    async hit(key: string, limit: Limit): Promise<number> {
      const interval = sql`make_interval(secs => ${limit.windowSeconds})`;
      const row = await sql<{ count: number }>`
        INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, now(), 1)
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN rate_limits.window_start + ${interval} <= now() THEN 1 ELSE rate_limits.count + 1 END,
          window_start = CASE WHEN rate_limits.window_start + ${interval} <= now() THEN now() ELSE rate_limits.window_start END
        RETURNING count`.execute(db);
      return row.rows[0]?.count ?? 1;
    },
    async clear(key: string): Promise<void> {
      await db.deleteFrom("rate_limits").where("key", "=", key).execute();
    },
    async purgeExpired(olderThanSeconds = 86_400): Promise<void> {
      await db
        .deleteFrom("rate_limits")
        .where("window_start", "<", sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`)
        .execute();
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
