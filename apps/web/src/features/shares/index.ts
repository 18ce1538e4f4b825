// The share-links feature's public surface: the public page's route and the share dialog's opener.

export { sharedRoute } from "./routes";
export { ShareButtonDialog } from "./share-entry";
