// The share-links feature's public surface: the share dialog's opener, the share dialog itself (loaded
// the first time it opens), the workspace's table of share links, and the calls a visitor's page
// makes through a link's token (the page itself is the shared-view feature).
import { lazyNamed } from "../../lib/deferred";

export {
  useSetSharedField,
  useSharedAsset,
  useSharedAssets,
  useSharedBoard,
  useSharedBoardDownload,
  useSharedFields,
  useSharedPayload,
  useSharedRecognisedText,
  useWatermarkedVideo,
} from "./api";
export { ShareButtonDialog } from "./share-entry";
export { ShareLinksSettings } from "./share-links-settings";

/** The share dialog for one item, fetched the first time it opens (mount it inside WhenOpened). */
export const ShareDialog = lazyNamed(() => import("./share-dialog"), "ShareDialog");
