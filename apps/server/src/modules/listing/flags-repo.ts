import type { AssetListBody } from "@hangar/contract";
import { type RawBuilder, type SqlBool, sql } from "kysely";

type Cond = RawBuilder<SqlBool>;

/**
 * An asset's approval status (issue 30): its status in the latest review holding it, canceled ones
 * aside, as the reviews feature keeps it for the version it was derived on (another version current:
 * in review again); `none` when no review holds it. The asset answer's `approval` reads the same.
 */
const APPROVAL_STATUS = sql`coalesce((
  SELECT CASE WHEN ra.version_id = coalesce(a.current_version_id, a.id) THEN ra.status ELSE 'in_review' END
  FROM review_assets ra JOIN reviews r ON r.id = ra.review_id
  WHERE ra.asset_id = a.id AND r.canceled_at IS NULL
  ORDER BY r.created_at DESC, r.id DESC LIMIT 1), 'none')`;

/** The listing's yes/no and status conditions over `assets a`: open threads, versions, approval status. */
export function flagConds(f: AssetListBody): Cond[] {
  const out: Cond[] = [];
  if (f.has_open_comments !== undefined) {
    const open = sql<SqlBool>`EXISTS (SELECT 1 FROM comments c WHERE c.asset_id = a.id AND c.parent_id IS NULL AND c.resolved_at IS NULL)`;
    out.push(f.has_open_comments ? open : sql<SqlBool>`NOT ${open}`);
  }
  if (f.has_versions !== undefined)
    out.push(f.has_versions ? sql<SqlBool>`a.version_count > 1` : sql<SqlBool>`a.version_count <= 1`);
  const approval = f.approval_status;
  if (approval?.includes?.length)
    out.push(sql<SqlBool>`${APPROVAL_STATUS} = ANY(${[...new Set(approval.includes)]}::text[])`);
  if (approval?.excludes?.length)
    out.push(sql<SqlBool>`NOT (${APPROVAL_STATUS} = ANY(${[...new Set(approval.excludes)]}::text[]))`);
  return out;
}

/** The caller's own favourites (true: only them; false: all but them). */
export const favoriteCond = (scope: { userId: string }, fav: boolean): Cond => {
  const e = sql<SqlBool>`EXISTS (SELECT 1 FROM asset_favorites f WHERE f.user_id = ${scope.userId} AND f.asset_id = a.id)`;
  return fav ? e : sql<SqlBool>`NOT ${e}`;
};

/**
 * `people` (issue 32): assets whose current version shows any of `includes` (and none of
 * `excludes`), through faces' (person_id, version_id) index: the people's versions are read once (a
 * hashed subplan), never a probe per listed asset.
 */
export function peopleConds(f: NonNullable<AssetListBody["people"]>, workspaceId: string): Cond[] {
  const versionsOf = (ids: string[]) =>
    sql`SELECT f.version_id FROM faces f WHERE f.person_id = ANY(${[...new Set(ids)]}::uuid[]) AND f.workspace_id = ${workspaceId}`;
  const out: Cond[] = [];
  if (f.includes?.length) out.push(sql<SqlBool>`coalesce(a.current_version_id, a.id) IN (${versionsOf(f.includes)})`);
  if (f.excludes?.length)
    out.push(sql<SqlBool>`coalesce(a.current_version_id, a.id) NOT IN (${versionsOf(f.excludes)})`);
  return out;
}

/**
 * `similar_to` (issue 32): assets whose picture is within max_distance of the asset's, through the
 * band index (hangar_similar, migration 20261202-3201); computed once per statement (a hashed subplan).
 */
export const similarCond = (f: NonNullable<AssetListBody["similar_to"]>, workspaceId: string): Cond =>
  sql<SqlBool>`a.id IN (SELECT s.asset_id FROM hangar_similar(${workspaceId}, ${f.asset_id}, ${f.max_distance}) s)`;
