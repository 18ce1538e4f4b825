// The uploads feature's public surface: the header controls the shell mounts, a new version of an
// asset (issue 29), and the pieces of the upload transport that the request-files page reuses
// (picked and dropped files, bytes to storage).
export { UploadHeaderControls } from "./components/upload-header-controls";
export { dragHasFiles, filesFromDrop, fromFileList } from "./file-entries";
export { putBytes, sendParts } from "./send-bytes";
export { forEachLimit } from "./transport";

/**
 * Uploads `file` as the newest version of an asset and opens the upload dialog on it. The runner
 * loads with the first upload, so whoever offers this does not carry it in their own chunk.
 */
export async function uploadNewVersion(file: File, target: { workspaceId: string; assetId: string; name: string }) {
  (await import("./upload-runner")).startVersionUpload(file, target);
}
