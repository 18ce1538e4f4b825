import { EXACT_COUNT_LIMIT } from "@hangar/contract";
import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db } from "../../db/db.ts";
import { LISTABLE } from "./listing-sql.ts";
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
 * One statement for the whole page: the ids (`ids`, in page order) joined by primary key to their
 * rows, manual tags (by name), AI tags (by confidence), live boards (by name) and whether the caller
 * favourited each. `exif` is read as present/absent only (the asset carries the EXIF columns).
 */
export function pageRowsSql(ids: RawBuilder<{ id: string }>, userId: string) {
  return sql<ListedRow>`
    SELECT ${COLUMNS}, CASE WHEN a.exif IS NULL THEN NULL ELSE '{}'::jsonb END AS exif,
      coalesce((SELECT array_agg(t.name ORDER BY t.name) FROM asset_tags at JOIN tags t ON t.id = at.tag_id
                WHERE at.asset_id = a.id), '{}') AS tag_names,
      coalesce((SELECT json_agg(json_build_object('label', g.label, 'confidence', g.confidence, 'type', g.type)
                  ORDER BY g.confidence DESC) FROM ai_tags g WHERE g.asset_id = a.id), '[]') AS ai,
      coalesce((SELECT json_agg(json_build_object('id', b.id, 'name', b.name) ORDER BY b.name)
                FROM board_assets ba JOIN boards b ON b.id = ba.board_id
                WHERE ba.asset_id = a.id AND b.deleted_at IS NULL), '[]') AS board_list,
      EXISTS (SELECT 1 FROM asset_favorites f WHERE f.user_id = ${userId} AND f.asset_id = a.id) AS is_favorite
    FROM unnest(ARRAY(${ids})) WITH ORDINALITY AS p(id, n)
    JOIN assets a ON a.id = p.id
    ORDER BY p.n`;
}

/** Counts matches, stopping at EXACT_COUNT_LIMIT + 1: the answer is exact when it is ≤ the limit. */
export function boundedCountSql(where: RawBuilder<SqlBool>) {
  return sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM (SELECT 1 FROM assets a WHERE ${where} LIMIT ${EXACT_COUNT_LIMIT + 1}) s`;
}

/** The planner's row estimate for the filter: costs a plan, not a scan (uses ANALYZE statistics). */
export function estimateSql(where: RawBuilder<SqlBool>) {
  return sql<{
    "QUERY PLAN": Array<{ Plan: { "Plan Rows": number } }>;
  }>`EXPLAIN (FORMAT JSON) SELECT 1 FROM assets a WHERE ${where}`;
}

export const listingRepo = {
  async page(db: Db, ids: RawBuilder<{ id: string }>, userId: string): Promise<ListedRow[]> {
    return (await pageRowsSql(ids, userId).execute(db)).rows;
  },
  async boundedCount(db: Db, where: RawBuilder<SqlBool>): Promise<number> {
    const r = await boundedCountSql(where).execute(db);
    return r.rows[0]?.n ?? 0;
  },
  async estimate(db: Db, where: RawBuilder<SqlBool>): Promise<number> {
    const r = await estimateSql(where).execute(db);
    return Math.round(r.rows[0]?.["QUERY PLAN"]?.[0]?.Plan["Plan Rows"] ?? 0);
  },
  /** The workspace's listable assets, exactly, from asset_list_days (one row per upload day). */
  async listableCount(db: Db, workspaceId: string): Promise<number> {
    const r = await sql<{ n: number }>`
      SELECT coalesce(sum(n), 0)::int AS n FROM asset_list_days WHERE workspace_id = ${workspaceId}`.execute(db);
    return r.rows[0]?.n ?? 0;
  },
};
