// The assets feature's public surface: what the router and other features may import.

export { undoDelete } from "./actions/api";
export { AssetBrowser } from "./browse/asset-browser";
export { RecentAssets, useAssetCount } from "./components/recent-assets";
export { allAssetsRoute } from "./routes";
