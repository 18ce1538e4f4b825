// The assets feature's public surface: what the router and other features may import.
export { DownloadBoardDialog } from "./actions/dialogs/download-board-dialog";
export { AssetBrowser } from "./browse/asset-browser";
export { allAssetsRoute } from "./routes";
