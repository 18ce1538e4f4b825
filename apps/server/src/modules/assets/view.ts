import { type CacheInvalidation, cacheKeys } from "../../platform/read-cache.ts";

/**
 * The asset read model: one query (view-repo.ts, `assetViewSql`) and one serializer
 * (serialize.ts, `serializeView`) behind the asset GET and every listing page.
 *
 * Its cache invalidation, declared here with it: every table the query reads, and the column whose
 * change notification reaches the cached answer (platform/read-cache.ts: `workspace_id` sends
 * "w:<workspace>" from the row itself, `asset_id` the workspace of the row's asset). A table joined
 * into the view must be added here and have that trigger (a migration), or view.test.ts fails:
 * otherwise a cached asset answer would go stale silently when the table changes.
 */
export const ASSET_VIEW_READS = {
  assets: "workspace_id",
  asset_versions: "workspace_id",
  tags: "workspace_id",
  ai_tags: "workspace_id",
  boards: "workspace_id",
  asset_tags: "asset_id",
  board_assets: "asset_id",
  asset_favorites: "asset_id",
  comments: "workspace_id",
  field_values: "workspace_id",
  field_options: "field_id",
  reviews: "workspace_id",
  review_assets: "workspace_id",
  review_decisions: "workspace_id",
  review_reviewers: "workspace_id",
  asset_rights: "workspace_id",
} as const satisfies Record<string, CacheInvalidation>;

/** The change keys a cached answer of the view depends on: all of the above give the workspace's. */
export const assetViewCacheDeps = (workspaceId: string) => [cacheKeys.workspace(workspaceId)];
