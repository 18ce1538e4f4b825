import { EXACT_COUNT_LIMIT } from "@hangar/contract";
import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { AssetRow } from "./repo.ts";

/**
 * The page's ids, one more than asked (so has_more is exact without a count). Only ids: the ORDER BY
 * and the filters run on the assets_list_* indexes and OFFSET walks index entries, not rows; the full
 * rows of the page are fetched afterwards by primary key (a deferred join), so page 5,000 costs
 * little more than page 1.
 */
export function pageIdsSql(where: RawBuilder<SqlBool>, order: RawBuilder<unknown>, limit: number, offset: number) {
  return sql<{
    id: string;
  }>`SELECT a.id FROM assets a WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
}

/** Counts matches, stopping at EXACT_COUNT_LIMIT + 1: the answer is exact when it is ≤ the limit. */
export function boundedCountSql(where: RawBuilder<SqlBool>) {
  return sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM (SELECT 1 FROM assets a WHERE ${where} LIMIT ${EXACT_COUNT_LIMIT + 1}) s`;
}

export const listingRepo = {
  async pageIds(db: Db, where: RawBuilder<SqlBool>, order: RawBuilder<unknown>, limit: number, offset: number) {
    const r = await pageIdsSql(where, order, limit, offset).execute(db);
    return r.rows.map((x) => x.id);
  },
  async boundedCount(db: Db, where: RawBuilder<SqlBool>): Promise<number> {
    const r = await boundedCountSql(where).execute(db);
    return r.rows[0]?.n ?? 0;
  },
  /** The planner's row estimate for the filter: costs a plan, not a scan (uses ANALYZE statistics). */
  async estimate(db: Db, where: RawBuilder<SqlBool>): Promise<number> {
    const r = await sql<{
      "QUERY PLAN": Array<{ Plan: { "Plan Rows": number } }>;
    }>`EXPLAIN (FORMAT JSON) SELECT 1 FROM assets a WHERE ${where}`.execute(db);
    const plan = r.rows[0]?.["QUERY PLAN"];
    return Math.round(plan?.[0]?.Plan["Plan Rows"] ?? 0);
  },
  /** Rows by id, in the order of `ids`. */
  async rows(db: Db, ids: string[]): Promise<AssetRow[]> {
    if (ids.length === 0) return [];
    const rows = await db.selectFrom("assets").selectAll().where("id", "in", ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  },
  async favoritesOf(db: Db, userId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await db
      .selectFrom("asset_favorites")
      .select("asset_id")
      .where("user_id", "=", userId)
      .where("asset_id", "in", ids)
      .execute();
    return new Set(rows.map((r) => r.asset_id));
  },
};
