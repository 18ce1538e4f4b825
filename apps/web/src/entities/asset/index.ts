// The asset entity: its query keys and queries (one asset, the grid's listing, tag lists), the listing's
// filter model and its address in the URL, the invalidation every feature that changes assets calls,
// the thumbnail, and how an asset's facts read (type names, exposure).
export {
  type AssetListView,
  assetKeys,
  assetQuery,
  fetchAsset,
  invalidateAssetQueries,
  isNotFound,
  trashKeys,
  useAsset,
  useAssetList,
  useWorkspaceAiTags,
  useWorkspaceTags,
} from "./api";
export { AssetThumb, fileTypeOf, hasPicture, placeholderUrl } from "./asset-thumb";
export {
  type AssetFilters,
  DEFAULT_ORDER,
  defaultOrderFor,
  getIn,
  hasFilters,
  pruneFilters,
  setIn,
} from "./filter-model";
export {
  COLOR_SWATCHES,
  type ColorName,
  capitalise,
  FILE_TYPE_LABELS,
  FILE_TYPE_OPTIONS,
  formatExposure,
  formatRange,
  ORDER_OPTIONS,
  parseExposure,
  parsePositive,
  SIMILAR_ORDER_OPTIONS,
} from "./labels";
export {
  type BrowseParams,
  encodeFilters,
  PARAM,
  readBrowseParams,
  similarPath,
  writeBrowseParams,
} from "./url-state";
