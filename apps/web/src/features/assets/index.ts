// The assets feature's public surface: what the router and other features may import.
import { lazyNamed } from "../../lib/deferred";

export { assetQuery, fetchAsset } from "./api";
export { AssetBrowser } from "./browse/asset-browser";
export { allAssetsRoute } from "./routes";

/** The board download dialog, fetched the first time it opens (mount it inside WhenOpened). */
export const DownloadBoardDialog = lazyNamed(
  () => import("./actions/dialogs/download-board-dialog"),
  "DownloadBoardDialog",
);
export { RecentAssets, useAssetCount } from "./components/recent-assets";
