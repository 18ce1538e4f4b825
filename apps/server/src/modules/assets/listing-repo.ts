import { EXACT_COUNT_LIMIT, type ListingOrder } from "@hangar/contract";
import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db } from "../../db/db.ts";
import { LISTABLE, listingOrder, orderBy, orderKey } from "./listing-sql.ts";
import type { AssetRow } from "./repo.ts";

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
 * How a page's ids are found: an array expression of them (in page order, limit + 1 of them), with
 * the WITH clause it needs, if any.
 */
export interface PageIds {
  with: RawBuilder<unknown> | null;
  ids: RawBuilder<unknown>;
}

export const plainPageIds = (select: RawBuilder<{ id: string }>): PageIds => ({
  with: null,
  ids: sql`ARRAY(${select})`,
});

/**
 * Up to this many matches, the probe sorts them instead of walking the order index (about where the
 * two cost the same for a first page of a million assets: the walk reads ~11 / density rows in index
 * order, the probe every match at a random heap page).
 */
export const PROBE_LIMIT = 1_500;

/**
 * The page's ids when the matches may be few: the planner expects few, or its estimate is rough (a
 * search word it has no statistics for is guessed at ~0.5% of rows, whether it matches 0 or 4,000
 * assets). Walking the order index until the page fills would read the whole workspace when the real
 * matches are few. So the
 * matches are probed first, the way the planner finds all of them fastest (`f` is a materialised CTE:
 * planned for full retrieval, so through the search indexes, yet run only as far as `m` reads it), at
 * most PROBE_LIMIT + 1: if that is all of them, they are sorted; if there are more, they are common
 * enough to walk the order index after all. One statement; the choice is made on the real count.
 */
export function probePageIds(where: RawBuilder<SqlBool>, order: ListingOrder, limit: number, offset: number): PageIds {
  const few = sql<SqlBool>`(SELECT count(*) FROM m) <= ${PROBE_LIMIT}`;
  return {
    with: sql`WITH f AS MATERIALIZED (SELECT a.id, ${orderKey(order)} AS k FROM assets a WHERE ${where}),
      m AS MATERIALIZED (SELECT id, k FROM f LIMIT ${PROBE_LIMIT + 1})`,
    ids: sql`ARRAY(SELECT m.id FROM m WHERE ${few} ORDER BY ${orderBy(order, sql`m.k`, sql`m.id`)} LIMIT ${limit} OFFSET ${offset})
      || ARRAY(SELECT a.id FROM assets a WHERE ${where} AND NOT ${few} ORDER BY ${listingOrder(order)} LIMIT ${limit} OFFSET ${offset})`,
  };
}

/** What the listing reads of an asset: every column toAsset() uses, not the search or EXIF dumps. */
const COLUMNS = sql.raw(
  [
    "id",
    "workspace_id",
    "name",
    "description",
    "status",
    "error_reason",
    "file_type",
    "mime_type",
    "file_extension",
    "size",
    "sha256",
    "directory",
    "width",
    "height",
    "duration",
    "page_count",
    "is_temp",
    "upload_board_id",
    "date_uploaded",
    "updated_at",
    "placeholder",
    "renditions",
    "camera_make",
    "camera_model",
    "lens",
    "iso",
    "aperture",
    "exposure_time",
    "focal_length",
    "date_taken",
    "gps_latitude",
    "gps_longitude",
    "gps_altitude",
    "palette",
    "simplified_colors",
    "quality_contrast",
    "quality_sharpness",
    "quality_brightness",
    "processed_at",
  ]
    .map((c) => `a.${c}`)
    .join(", "),
);

export type ListedRow = AssetRow & {
  tag_names: string[];
  ai: Array<{ label: string; confidence: number; type: string }>;
  board_list: Array<{ id: string; name: string }>;
  is_favorite: boolean;
};

/**
 * One statement for the whole page: the ids (`page`, in page order) joined by primary key to their
 * rows, manual tags (by name), AI tags (by confidence), live boards (by name) and whether the caller
 * favourited each. `exif` is read as present/absent only (the asset carries the EXIF columns).
 */
export function pageRowsSql(page: PageIds, userId: string) {
  return sql<ListedRow>`
    ${page.with ?? sql``}
    SELECT ${COLUMNS}, CASE WHEN a.exif IS NULL THEN NULL ELSE '{}'::jsonb END AS exif,
      coalesce((SELECT array_agg(t.name ORDER BY t.name) FROM asset_tags at JOIN tags t ON t.id = at.tag_id
                WHERE at.asset_id = a.id), '{}') AS tag_names,
      coalesce((SELECT json_agg(json_build_object('label', g.label, 'confidence', g.confidence, 'type', g.type)
                  ORDER BY g.confidence DESC) FROM ai_tags g WHERE g.asset_id = a.id), '[]') AS ai,
      coalesce((SELECT json_agg(json_build_object('id', b.id, 'name', b.name) ORDER BY b.name)
                FROM board_assets ba JOIN boards b ON b.id = ba.board_id
                WHERE ba.asset_id = a.id AND b.deleted_at IS NULL), '[]') AS board_list,
      EXISTS (SELECT 1 FROM asset_favorites f WHERE f.user_id = ${userId} AND f.asset_id = a.id) AS is_favorite
    FROM unnest(${page.ids}::uuid[]) WITH ORDINALITY AS p(id, n)
    JOIN assets a ON a.id = p.id
    ORDER BY p.n`;
}

/** Counts matches, stopping at EXACT_COUNT_LIMIT + 1: the answer is exact when it is ≤ the limit. */
export function boundedCountSql(where: RawBuilder<SqlBool>) {
  return sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM (SELECT 1 FROM assets a WHERE ${where} LIMIT ${EXACT_COUNT_LIMIT + 1}) s`;
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

export const listingRepo = {
  /** The listed rows of `ids`: a PageIds, or a statement selecting ids (in order). */
  async page(db: Db, ids: PageIds | RawBuilder<{ id: string }>, userId: string): Promise<ListedRow[]> {
    const page = "ids" in ids ? ids : plainPageIds(ids);
    return (await pageRowsSql(page, userId).execute(db)).rows;
  },
  async boundedCount(db: Db, where: RawBuilder<SqlBool>): Promise<number> {
    const r = await boundedCountSql(where).execute(db);
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
