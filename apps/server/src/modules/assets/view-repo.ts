import type { Asset } from "@hangar/contract";
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { AssetRow } from "./repo.ts";

/**
 * The asset read model's query: the one statement behind every asset answer (the asset GET, each
 * listing page). Which assets, and in what order, is the caller's (`PageIds`); what is read of each
 * is this. The tables it reads, and how a change to each reaches the read cache, are declared next
 * to it in view.ts; a test runs EXPLAIN on this statement and fails on any table not declared there.
 */

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

/** What the asset view reads of an asset: every column toAsset() uses, not the search or EXIF dumps. */
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
    "current_version_id",
    "current_version_number",
    "version_count",
    "newer_version_id",
    "duplicate_of",
  ]
    .map((c) => `a.${c}`)
    .join(", "),
);

/** One row of the asset view: the asset with its relations and the caller's favourite. */
export type AssetViewRow = AssetRow & {
  tag_names: string[];
  ai: Array<{ label: string; confidence: number; type: string }>;
  board_list: Array<{ id: string; name: string }>;
  is_favorite: boolean;
  open_comments: number;
  field_chips: Array<{ field_id: string; display: string; color: string | null }>;
  /** A newer version not COMPLETED yet (assets.newer_version_id), with its number and status. */
  newer_version: { id: string; number: number; status: AssetRow["status"] } | null;
  /** The latest review holding the asset (canceled ones aside): its status and counting decisions (issue 30). */
  approval: Asset["approval"];
  /** Usage rights (issue 33), null when none are recorded. */
  rights: Asset["rights"] | null;
  /** The listing's sort key as text, when the caller asked for it (a listing page's cursor). */
  sort_key?: string | null;
};

/**
 * Which comments a share link's visitor counts (undefined: a member, every thread of every version):
 * the threads of the link's board only, and the current version's only unless the link shows versions.
 */
export interface CommentScope {
  board: string | null;
  currentVersionOnly: boolean;
}
const commentScope = (scope: CommentScope | undefined) => {
  if (!scope) return sql``;
  const board = scope.board === null ? sql`AND c.board_id IS NULL` : sql`AND c.board_id = ${scope.board}`;
  return scope.currentVersionOnly ? sql`${board} AND c.version_id = coalesce(a.current_version_id, a.id)` : board;
};

/**
 * An asset's approval (issue 30): the latest review holding it, canceled ones aside; its status there
 * (kept by the reviews feature for the version it was derived on: another version current is in
 * review again), and each reviewer's latest decision on the current version since the last reopen.
 */
const APPROVAL = sql`(
  SELECT json_build_object('review_id', r.id, 'review_title', r.title,
    'status', CASE WHEN ra.version_id = coalesce(a.current_version_id, a.id) THEN ra.status ELSE 'in_review' END,
    'decisions', coalesce((
      SELECT json_agg(json_build_object('reviewer_id', d.reviewer_id, 'user_id', rr.user_id,
          'name', coalesce(nullif(rr.name, ''), rr.email, ''), 'decision', d.decision,
          'decided_at', to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY d.seq)
      FROM (SELECT DISTINCT ON (x.reviewer_id) x.* FROM review_decisions x
            WHERE x.review_id = r.id AND x.asset_id = a.id AND x.version_id = coalesce(a.current_version_id, a.id)
              AND x.seq > ra.reset_seq
            ORDER BY x.reviewer_id, x.seq DESC) d
      JOIN review_reviewers rr ON rr.id = d.reviewer_id AND rr.removed_at IS NULL), '[]'))
  FROM review_assets ra JOIN reviews r ON r.id = ra.review_id
  WHERE ra.asset_id = a.id AND r.canceled_at IS NULL
  ORDER BY r.created_at DESC, r.id DESC LIMIT 1)`;

/** An asset's usage rights (issue 33, asset_rights), as the contract's AssetRights. */
const RIGHTS = sql`(
  SELECT json_build_object('license', r.license, 'cc_variant', r.cc_variant, 'credit', r.credit,
    'source', r.source, 'usage_notes', r.usage_notes, 'territories', r.territories,
    'model_release', r.model_release, 'property_release', r.property_release,
    'expires_at', to_char(r.expire_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  FROM asset_rights r WHERE r.id = a.id)`;

/**
 * One statement for the whole page: the ids (`page`, in page order) joined by primary key to their
 * rows, manual tags (by name), AI tags (by confidence), live boards (by name) and whether the caller
 * favourited each. `exif` is read as present/absent only (the asset carries the EXIF columns).
 */
export function assetViewSql(page: PageIds, userId: string, comments?: CommentScope, sortKey?: RawBuilder<unknown>) {
  return sql<AssetViewRow>`
    ${page.with ?? sql``}
    SELECT ${COLUMNS}, ${sortKey ? sql`(${sortKey}) AS sort_key,` : sql``} CASE WHEN a.exif IS NULL THEN NULL ELSE '{}'::jsonb END AS exif,
      coalesce((SELECT array_agg(t.name ORDER BY t.name) FROM asset_tags at JOIN tags t ON t.id = at.tag_id
                WHERE at.asset_id = a.id), '{}') AS tag_names,
      coalesce((SELECT json_agg(json_build_object('label', g.label, 'confidence', g.confidence, 'type', g.type)
                  ORDER BY g.confidence DESC) FROM ai_tags g WHERE g.asset_id = a.id), '[]') AS ai,
      coalesce((SELECT json_agg(json_build_object('id', b.id, 'name', b.name) ORDER BY b.name)
                FROM board_assets ba JOIN boards b ON b.id = ba.board_id
                WHERE ba.asset_id = a.id AND b.deleted_at IS NULL), '[]') AS board_list,
      EXISTS (SELECT 1 FROM asset_favorites f WHERE f.user_id = ${userId} AND f.asset_id = a.id) AS is_favorite,
      (SELECT count(*) FROM comments c WHERE c.asset_id = a.id AND c.parent_id IS NULL AND c.resolved_at IS NULL
        ${commentScope(comments)})::int
        AS open_comments,
      coalesce((SELECT json_agg(json_build_object('field_id', v.field_id,
          'display', coalesce((SELECT string_agg(o.label, ', ' ORDER BY o.position, o.label) FROM field_options o
                               WHERE o.id = v.option_id OR o.id = ANY(v.multi_option_ids)), v.text_value, v.date_value::text, ''),
          'color', (SELECT o.color FROM field_options o WHERE o.id = v.option_id OR o.id = ANY(v.multi_option_ids)
                    ORDER BY o.position LIMIT 1)))
        FROM field_values v WHERE v.asset_id = a.id), '[]') AS field_chips,
      (SELECT json_build_object('id', nv.id, 'number', nv.number, 'status', nv.status)
        FROM asset_versions nv WHERE nv.id = a.newer_version_id) AS newer_version,
      ${APPROVAL} AS approval,
      ${RIGHTS} AS rights
    FROM unnest(${page.ids}::uuid[]) WITH ORDINALITY AS p(id, n)
    JOIN assets a ON a.id = p.id
    ORDER BY p.n`;
}

export const assetViewRepo = {
  /** The view's rows of `ids`: a PageIds, or a statement selecting ids (in order). */
  async rows(
    db: Db,
    ids: PageIds | RawBuilder<{ id: string }>,
    userId: string,
    /** A share link's visitor: the comments they count (its board's, its version's). */
    comments?: CommentScope,
    /** An expression over `assets a` answered as `sort_key` (the listing's cursor). */
    sortKey?: RawBuilder<unknown>,
  ): Promise<AssetViewRow[]> {
    const page = "ids" in ids ? ids : plainPageIds(ids);
    return (await assetViewSql(page, userId, comments, sortKey).execute(db)).rows;
  },
};
