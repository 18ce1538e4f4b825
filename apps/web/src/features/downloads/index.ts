// Downloads: one file, several as a zip, a board as a zip (spec 01 §7), with their progress toast.
import { lazyNamed } from "../../lib/deferred";

export { downloadAsset, downloadItems, useDownload } from "./use-download";

/** The board download dialog, fetched the first time it opens (mount it inside WhenOpened). */
export const DownloadBoardDialog = lazyNamed(() => import("./download-board-dialog"), "DownloadBoardDialog");
