// The assets feature's public surface: what the router and other features may import.
import { lazyNamed } from "../../lib/deferred";

export { undoDelete } from "./actions/api";
export { AssetBrowser } from "./browse/asset-browser";
export { RecentAssets, useAssetCount } from "./components/recent-assets";
export { allAssetsRoute } from "./routes";
// Issue 33: a smart board's page edits its saved filter with the same builder (loaded when opened,
// as the grid's own is) and shows it as chips.
export const LazyFilterDrawer = lazyNamed(() => import("./filters/filter-drawer"), "FilterDrawer");
export { filterChips } from "./filters/filter-chips";
