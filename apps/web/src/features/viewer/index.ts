// The viewer feature's public surface: the full-screen asset viewer, and compare for two assets
// (issue 29). Both are heavy and shown on demand: import them only with import() (React.lazy), so
// that they stay in a chunk of their own.
export { AssetViewer } from "./asset-viewer";
export { CompareAssets } from "./compare/compare-assets";
