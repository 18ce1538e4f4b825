import { type AssetListBody, EXACT_COUNT_LIMIT } from "@hangar/contract";
import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db } from "../../db/db.ts";
import { type AssetViewRow, assetViewRepo, type PageIds, plainPageIds } from "../assets/index.ts";
import {
  LISTABLE,
  type ListingScope,
  listingFilters,
  listingOrder,
  listingWhere,
  matchArms,
  orderBy,
  orderKey,
  roughAndUnbounded,
  roughEstimate,
  seekOf,
  uploadRange,
} from "./filters-repo.ts";
import { nearestRepo } from "./nearest-repo.ts";
import { seekPageIds, sortKeyText, pageWindow as window } from "./seek-repo.ts";

/**
 * The listing's plans: which ids make a page (the order index, the day counts, or a probe of few
 * matches) and how the total is counted (exactly, bounded, or the planner's estimate), chosen here
 * from the filter and the planner's estimate. The rows themselves are the asset view's
 * (modules/assets view-repo.ts), joined in the same statement.
 */

/** At or below this planner estimate, a filtered page probes its matches first (probePageIds). */
export const PROBE_MAX_ESTIMATE = 50_000;
/**
 * Exact counting only when the planner prices finding every match at most this (its cost units; a
 * full scan of a million assets is ~100,000 at PostgreSQL's default settings). Dearer: the estimate.
 */
export const COUNT_MAX_PLAN_COST = 50_000;

/** For tests: force the probe on or off, lower the cost of an exact count. */
export interface ListingTuning {
  probe?: "always" | "never";
  countMaxPlanCost?: number;
}

/**
 * From this offset on, the unfiltered listing by upload date starts its page from asset_list_days
 * (skipping whole days) rather than walking every index entry before it.
 */
export const DAY_SKIP_MIN_OFFSET = 1_000;

/**
 * The page's ids, one more than asked (so has_more is exact without a count). Only ids: the ORDER BY
 * and the filters run on the assets_list_* indexes and OFFSET walks index entries, not rows; the rows
 * are joined afterwards by primary key (a deferred join).
 */
export function pageIdsSql(where: RawBuilder<SqlBool>, order: RawBuilder<unknown>, limit: number, offset: number) {
  return sql<{
    id: string;
  }>`SELECT a.id FROM assets a WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * The same ids for the unfiltered listing by upload date, deep in it. asset_list_days holds the
 * listable assets per upload day: walking the days in the listing's order (primary key order) with a
 * running sum, the first day whose running sum exceeds the offset is the day the page starts in, and
 * the walk stops there (a few rows for page 5,000, not every day). The index scan then begins at that
 * day's edge and OFFSET walks only the assets of that day before the page. One statement, one
 * snapshot: the day counts match the rows. Beyond the end no day qualifies and the page is empty.
 */
export function dayPageIdsSql(workspaceId: string, desc: boolean, limit: number, offset: number) {
  const dir = sql.raw(desc ? "DESC" : "ASC");
  const edge = desc
    ? sql<SqlBool>`a.date_uploaded < (SELECT (s.day + 1)::timestamp AT TIME ZONE 'UTC' FROM s)`
    : sql<SqlBool>`a.date_uploaded >= (SELECT s.day::timestamp AT TIME ZONE 'UTC' FROM s)`;
  return sql<{ id: string }>`
    WITH s AS (
      SELECT day, cum - n AS before FROM (
        SELECT day, n, sum(n) OVER (ORDER BY day ${dir} ROWS UNBOUNDED PRECEDING) AS cum
        FROM asset_list_days WHERE workspace_id = ${workspaceId} ORDER BY day ${dir}
      ) d
      WHERE cum > ${offset} LIMIT 1
    )
    SELECT a.id FROM assets a
    WHERE a.workspace_id = ${workspaceId} AND ${LISTABLE} AND ${edge}
    ORDER BY a.date_uploaded ${dir}, a.id ${dir}
    LIMIT ${limit} OFFSET (SELECT ${offset}::int - s.before FROM s)`;
}

/**
 * Up to this many matches, the probe sorts them instead of walking the order index (about where the
 * two cost the same for a first page of a million assets: the walk reads ~11 / density rows in index
 * order, the probe every match at a random heap page).
 */
export const PROBE_LIMIT = 1_500;

/**
 * The walk in the listing's order after all, once a probe found more than PROBE_LIMIT matches (`gate`
 * says so; a one-time filter, so it costs nothing otherwise): the order index is read until the page
 * fills. With a trusted estimate the planner plans it (an upload-date range, say, becomes the order
 * index's own range). With a rough one the ordered scan is a fenced subquery (OFFSET 0: the other
 * conditions cannot be pushed into it, nor the scan replaced), each asset's filter checked as it comes,
 * because the planner, left to itself, plans from the very estimate the probe just proved wrong:
 * believing 152 matches of "Notes contains retouch" where there were 10,000, it fetched and sorted all
 * 10,000 (110 ms) instead of reading the 1,100 assets before the page's eleventh match (issue 16).
 * The upload-date range stays inside the fence (an index condition, exact either way).
 */
function walkIds(body: AssetListBody, scope: ListingScope, gate: RawBuilder<SqlBool>, limit: number, offset: number) {
  const order = listingOrder(body.order_by);
  if (!roughEstimate(body))
    return sql`ARRAY(SELECT a.id FROM assets a WHERE ${listingWhere(body, scope)} AND ${gate}
      ORDER BY ${order} LIMIT ${limit} OFFSET ${offset})`;
  const scan = [sql<SqlBool>`a.workspace_id = ${scope.workspaceId}`, LISTABLE, ...seekOf(scope), ...uploadRange(body)];
  return sql`ARRAY(SELECT a.id FROM (
        SELECT * FROM assets a WHERE ${sql.join(scan, sql` AND `)} ORDER BY ${order} OFFSET 0) a
      WHERE ${sql.join(listingFilters(body, scope), sql` AND `)} AND ${gate} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset})`;
}

/** Every match's id and sort key (matchArms: disjoint, so UNION ALL is exact). */
function allMatches(body: AssetListBody, scope: ListingScope) {
  const k = orderKey(body.order_by);
  return sql.join(
    matchArms(body, scope).map((c) => sql`SELECT a.id, ${k} AS k FROM assets a WHERE ${c}`),
    sql` UNION ALL `,
  );
}

/**
 * The page's ids when the matches may be few: the planner expects few, or its estimate is rough (a
 * search word it has no statistics for is guessed at ~0.5% of rows, whether it matches 0 or 4,000
 * assets). Walking the order index until the page fills would read the whole workspace when the real
 * matches are few. So the
 * matches are probed first, the way the planner finds all of them fastest (`f` is a materialised CTE:
 * planned for full retrieval, so through the search indexes, yet run only as far as `m` reads it), at
 * most PROBE_LIMIT + 1: if that is all of them, they are sorted; if there are more, they are common
 * enough to walk the order index after all (walkIds). One statement; the choice is made on the real
 * count.
 */
export function probePageIds(body: AssetListBody, scope: ListingScope, limit: number, offset: number): PageIds {
  const order = body.order_by;
  const few = sql<SqlBool>`(SELECT count(*) FROM m) <= ${PROBE_LIMIT}`;
  return {
    with: sql`WITH f AS MATERIALIZED (${allMatches(body, scope)}),
      m AS MATERIALIZED (SELECT id, k FROM f LIMIT ${PROBE_LIMIT + 1})`,
    ids: sql`ARRAY(SELECT m.id FROM m WHERE ${few} ORDER BY ${orderBy(order, sql`m.k`, sql`m.id`)} LIMIT ${limit} OFFSET ${offset})
      || ${walkIds(body, scope, sql<SqlBool>`NOT ${few}`, limit, offset)}`,
  };
}

/**
 * How many assets, in the listing's order, a guarded walk reads before it gives up on the order index
 * (guardedPageIds): a few ms of heap fetches and filter checks on a warm million, paid by every
 * shallow page of a filter the planner believes common; a sparser filter falls back to its indexes.
 */
export const WALK_BUDGET = 1_000;

/**
 * The page's ids when the planner believes the matches common enough to walk the order index until
 * the page fills (issue 19). Its belief multiplies the conditions' selectivities as if independent,
 * and users combine filters freely: VIDEO with a camera make, a document with an ISO, a date taken on
 * a clip, are each "a few percent" to it and match nothing, so the walk read all million assets
 * (0.7–2.3 s). Here the walk has a budget: the first WALK_BUDGET assets in the listing's order (a
 * subquery with that LIMIT, named `a` so the filter reads it as it reads the table), the filter
 * evaluated on each in that order (`w`), stopping as soon as offset + limit matches are found. The
 * planner prices the filter for WALK_BUDGET rows, not for the whole workspace: priced for a million
 * (the filter beside the LIMIT), a custom field's EXISTS became a hash of every field value (65 ms for
 * "field is empty"). When `w` holds offset + limit matches, they are exactly the page's (the first
 * matches in order are among the first assets in order).
 * When it does not, the matches are sparse (under (offset + limit) / WALK_BUDGET): they are probed
 * through the filter's own indexes as in probePageIds (few: sorted; more: the unbounded walk after
 * all, walkIds). Each branch runs only when the one before it did not answer (one-time filters on InitPlans,
 * evaluated lazily), so a common filter pays the walk alone. One statement, one snapshot, exact.
 */
export function guardedPageIds(body: AssetListBody, scope: ListingScope, limit: number, offset: number): PageIds {
  const filters = sql.join(listingFilters(body, scope), sql` AND `);
  const order = body.order_by;
  const want = offset + limit;
  const enough = sql<SqlBool>`(SELECT count(*) FROM w) >= ${want}`;
  const few = sql<SqlBool>`(SELECT count(*) FROM m) <= ${PROBE_LIMIT}`;
  return {
    with: sql`WITH w AS MATERIALIZED (
        SELECT a.id, ${orderKey(order)} AS k FROM (
          SELECT * FROM assets a WHERE ${sql.join([sql<SqlBool>`a.workspace_id = ${scope.workspaceId}`, LISTABLE, ...seekOf(scope)], sql` AND `)}
          ORDER BY ${listingOrder(order)} LIMIT ${WALK_BUDGET}) a
        WHERE ${filters} LIMIT ${want}),
      f AS MATERIALIZED (${allMatches(body, scope)}),
      m AS MATERIALIZED (SELECT id, k FROM f LIMIT ${PROBE_LIMIT + 1})`,
    ids: sql`ARRAY(SELECT w.id FROM w WHERE ${enough} ORDER BY ${orderBy(order, sql`w.k`, sql`w.id`)} LIMIT ${limit} OFFSET ${offset})
      || ARRAY(SELECT m.id FROM m WHERE NOT ${enough} AND ${few} ORDER BY ${orderBy(order, sql`m.k`, sql`m.id`)} LIMIT ${limit} OFFSET ${offset})
      || ${walkIds(body, scope, sql<SqlBool>`NOT ${enough} AND NOT ${few}`, limit, offset)}`,
  };
}

/** Counts matches (disjoint `arms`, matchArms), stopping at `limit` + 1: exact when it is ≤ `limit`. */
export function boundedCountSql(arms: RawBuilder<SqlBool>[], limit = EXACT_COUNT_LIMIT) {
  const all = sql.join(
    arms.map((c) => sql`SELECT 1 FROM assets a WHERE ${c}`),
    sql` UNION ALL `,
  );
  return sql<{ n: number }>`SELECT count(*)::int AS n FROM (${all} LIMIT ${limit + 1}) s`;
}

/**
 * The planner's estimate for the filter: how many rows match and what finding them all would cost
 * (in its cost units). Costs a plan, not a scan (uses ANALYZE statistics).
 */
export function estimateSql(where: RawBuilder<SqlBool>) {
  return sql<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>`EXPLAIN (FORMAT JSON) SELECT 1 FROM assets a WHERE ${where}`;
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Plan Rows": number;
  "Total Cost": number;
  Plans?: PlanNode[];
}

/** The planner's estimate: matches, the cost of finding them all, and whether it would scan all assets. */
export interface Estimate {
  rows: number;
  cost: number;
  seqScan: boolean;
}

const scansAssets = (n: PlanNode): boolean =>
  (n["Node Type"] === "Seq Scan" && n["Relation Name"] === "assets") || (n.Plans ?? []).some(scansAssets);

/** The unfiltered listing's page: by upload date and deep, from the day counts; else its order index. */
export function unfilteredPageIds(body: AssetListBody, scope: ListingScope): PageIds {
  const { limit, offset } = window(body);
  const byUpload = body.order_by === "-date_uploaded" || body.order_by === "date_uploaded";
  if (byUpload && offset >= DAY_SKIP_MIN_OFFSET)
    return plainPageIds(dayPageIdsSql(scope.workspaceId, body.order_by.startsWith("-"), limit, offset));
  return plainPageIds(pageIdsSql(listingWhere(body, scope), listingOrder(body.order_by), limit, offset));
}

/**
 * A filtered listing's page, given the planner's estimate: its plan as it chooses (for an ORDER BY
 * with LIMIT, usually walking the order index), except when the matches are few (expected at most
 * PROBE_LIMIT, or a rough estimate at most PROBE_MAX_ESTIMATE) and reachable through indexes (no scan
 * of every asset); then they are probed first (probePageIds). When it would scan every asset anyway,
 * walking in order is never worse.
 */
export function filteredPageIds(
  body: AssetListBody,
  scope: ListingScope,
  planned: Estimate,
  probe: "auto" | "always" | "never" = "auto",
): PageIds {
  const { limit, offset } = window(body);
  const where = listingWhere(body, scope);
  const rough = roughEstimate(body);
  const few = planned.rows <= PROBE_LIMIT || (rough && planned.rows <= PROBE_MAX_ESTIMATE);
  const auto = few && !planned.seqScan;
  const shallow = (offset + limit) * 4 <= WALK_BUDGET;
  if (probe === "always") return probePageIds(body, scope, limit, offset);
  // A rough estimate may as well be far too small: "model 1" in camera text was believed 18 matches
  // where 300,000 assets have it, and the probe's trigram bitmap of them all cost 100 ms before the
  // walk found the page in 46 assets. So a shallow page of a rough filter walks on a budget first
  // (guardedPageIds: the same probe follows when the budget does not fill the page), unless only
  // custom-field values make it rough: their probe is driven from the field's values, bounded by
  // their number, and the walk first cost "Notes contains retouch" (1%) 1,000 wasted checks.
  if (probe === "auto" && auto)
    return roughAndUnbounded(body) && shallow
      ? guardedPageIds(body, scope, limit, offset)
      : probePageIds(body, scope, limit, offset);
  // Believed common: walk in order, on a budget when the page is shallow enough for one (a deep page
  // walks its offset whatever the plan; a scan of every asset finds a rare page no slower).
  if (probe === "auto" && !planned.seqScan && shallow) return guardedPageIds(body, scope, limit, offset);
  return plainPageIds(pageIdsSql(where, listingOrder(body.order_by), limit, offset));
}

export const listingRepo = {
  /**
   * One page of the listing (page_size + 1 rows, so has_more needs no count) and its count: the
   * unfiltered listing counted exactly from the day counts; a filtered one as its estimate says.
   */
  async find(
    db: Db,
    body: AssetListBody,
    scope: ListingScope,
    tuning: ListingTuning = {},
    /** Where a previous page of this listing ended, at or before this page (waypoints.ts). */
    from: { offset: number; id: string; nullKey?: boolean } | null = null,
  ): Promise<{ rows: AssetViewRow[]; total: number; estimate: boolean }> {
    if (body.order_by === "distance" && body.similar_to)
      return nearestRepo.find(db, { ...body, similar_to: body.similar_to }, scope);
    const seek = from ? seekPageIds(body, scope, from, window(body).offset - from.offset) : null;
    // Each row's sort key, so that the page's last one makes the next page's cursor (cursor.ts).
    const sortKey = sortKeyText(body.order_by);
    if (listingFilters(body, scope).length === 0) {
      const [rows, total] = await Promise.all([
        assetViewRepo.rows(db, seek ?? unfilteredPageIds(body, scope), scope.userId, scope.comments, sortKey),
        listingRepo.listableCount(db, scope.workspaceId),
      ]);
      return { rows, total, estimate: false };
    }
    // Filtered: the planner's estimate (a plan, no scan) picks how to find the page and how to count.
    const where = listingWhere(body, scope);
    const planned = await listingRepo.estimate(db, where);
    const [rows, counted] = await Promise.all([
      // From a waypoint unless the matches are few (the probe sorts them, whatever the depth).
      assetViewRepo.rows(
        db,
        (planned.rows > PROBE_LIMIT && seek) || filteredPageIds(body, scope, planned, tuning.probe ?? "auto"),
        scope.userId,
        scope.comments,
        sortKey,
      ),
      listingRepo.countFiltered(
        db,
        // The facets' intersection pays off where it is small; counting a large one (tag7 within VIDEO,
        // 20,000) read VIDEO's 200,000 postings for nothing: only when few matches are expected.
        matchArms(body, scope, planned.rows <= PROBE_LIMIT),
        planned,
        tuning.countMaxPlanCost ?? COUNT_MAX_PLAN_COST,
        roughEstimate(body),
      ),
    ]);
    return { rows, ...counted };
  },
  /**
   * The counting strategy for a filtered listing (contract listing.ts), from the planner's estimate:
   * above EXACT_COUNT_LIMIT expected matches, or when finding them all would be dear, the estimate;
   * otherwise an exact count that stops at EXACT_COUNT_LIMIT + 1. When the estimate is rough
   * (roughEstimate), its cost is no evidence that counting is cheap: "Notes contains retouch" was
   * believed 152 matches and counting its 10,000 fetched 10,000 assets (41–58 ms, issue 16). So a rough
   * filter is counted up to PROBE_LIMIT (what the probe itself sorts); more answer the larger of the
   * estimate and PROBE_LIMIT + 1, flagged (a lower bound where the estimate is below what was seen).
   */
  async countFiltered(
    db: Db,
    arms: RawBuilder<SqlBool>[],
    planned: Estimate,
    countMaxPlanCost: number,
    rough = false,
  ): Promise<{ total: number; estimate: boolean }> {
    if (planned.rows > EXACT_COUNT_LIMIT || planned.cost > countMaxPlanCost)
      return { total: planned.rows, estimate: true };
    const limit = rough ? PROBE_LIMIT : EXACT_COUNT_LIMIT;
    const bounded = await listingRepo.boundedCount(db, arms, limit);
    if (bounded <= limit) return { total: bounded, estimate: false };
    return { total: Math.max(planned.rows, limit + 1), estimate: true };
  },
  async boundedCount(db: Db, arms: RawBuilder<SqlBool>[], limit = EXACT_COUNT_LIMIT): Promise<number> {
    const r = await boundedCountSql(arms, limit).execute(db);
    return r.rows[0]?.n ?? 0;
  },
  async estimate(db: Db, where: RawBuilder<SqlBool>): Promise<Estimate> {
    const r = await estimateSql(where).execute(db);
    const plan = r.rows[0]?.["QUERY PLAN"]?.[0]?.Plan;
    if (!plan) return { rows: 0, cost: 0, seqScan: false };
    return { rows: Math.round(plan["Plan Rows"]), cost: plan["Total Cost"], seqScan: scansAssets(plan) };
  },
  /** The workspace's listable assets, exactly, from asset_list_days (one row per upload day). */
  async listableCount(db: Db, workspaceId: string): Promise<number> {
    const r = await sql<{ n: number }>`
      SELECT coalesce(sum(n), 0)::int AS n FROM asset_list_days WHERE workspace_id = ${workspaceId}`.execute(db);
    return r.rows[0]?.n ?? 0;
  },
};
