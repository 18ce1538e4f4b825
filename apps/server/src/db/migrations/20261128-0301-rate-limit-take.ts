import { type Kysely, sql } from "kysely";

/**
 * Rate limits decide on the count they take (issue 27): `rate_limit_take` locks every key's row (in
 * key order, so overlapping takers cannot deadlock), and counts one more on all of them only when
 * none is full. One call is one statement, so parallel requests cannot all pass a peek before any of
 * them is counted. It answers NULL when the attempt was counted, else the seconds until the last
 * full window ends (Retry-After). A refused attempt counts nowhere (unless `p_count_refused`): a
 * guesser stopped on one key adds nothing to the others (the account-wide login count stays the owner's).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION rate_limit_take(p_keys text[], p_max integer[], p_secs integer[], p_count_refused boolean)
    RETURNS integer LANGUAGE plpgsql AS $$
    DECLARE
      i bigint;
      r rate_limits%ROWTYPE;
      wait integer := NULL;
    BEGIN
      FOR i IN SELECT u.ord FROM unnest(p_keys) WITH ORDINALITY AS u(k, ord) ORDER BY u.k, u.ord LOOP
        -- Take the row's lock (creating it at zero), starting a new window when the old one is over.
        INSERT INTO rate_limits AS t (key, window_start, count) VALUES (p_keys[i], now(), 0)
        ON CONFLICT (key) DO UPDATE SET
          window_start = CASE WHEN t.window_start + make_interval(secs => p_secs[i]) <= now()
                              THEN now() ELSE t.window_start END,
          count = CASE WHEN t.window_start + make_interval(secs => p_secs[i]) <= now() THEN 0 ELSE t.count END
        RETURNING t.* INTO r;
        IF r.count >= p_max[i] THEN
          wait := greatest(coalesce(wait, 1),
            ceil(extract(epoch FROM r.window_start + make_interval(secs => p_secs[i]) - now()))::integer);
        END IF;
      END LOOP;
      IF wait IS NULL OR p_count_refused THEN
        UPDATE rate_limits SET count = count + 1 WHERE key = ANY (p_keys);
      END IF;
      RETURN wait;
    END $$`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP FUNCTION IF EXISTS rate_limit_take(text[], integer[], integer[], boolean)`.execute(db);
}
