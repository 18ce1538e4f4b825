export type { AssetLifecycle, NewAsset } from "./lifecycle-service.ts";
export { ASSET, assetAbilities } from "./policy.ts";
export { serializeView, type Viewer, viewerOf } from "./serialize.ts";
export { type AssetsService, createAssetsService } from "./service.ts";
export type { NewVersion, VersionWork } from "./versions-lifecycle.ts";
export { type CommentsFollow, createVersionsService, type VersionsService } from "./versions-service.ts";
export { ASSET_VIEW_READS, assetViewCacheDeps } from "./view.ts";
export {
  type AssetViewRow,
  assetViewRepo,
  assetViewSql,
  type CommentScope,
  type PageIds,
  plainPageIds,
} from "./view-repo.ts";
export { type LinkView, linkCommentScope, linkViewOf } from "./visitor-view.ts";
