// The uploads feature's public surface: the header controls the shell mounts, and the pieces of the
// upload transport that the request-files page reuses (picked and dropped files, bytes to storage).
export { UploadHeaderControls } from "./components/upload-header-controls";
export { dragHasFiles, filesFromDrop, fromFileList } from "./file-entries";
export { putBytes, sendParts } from "./send-bytes";
export { forEachLimit } from "./transport";
