// The uploads feature's public surface: the header controls the shell mounts and the thumbnail pieces.
export { AssetThumb, placeholderUrl } from "./components/asset-thumb";
export { UploadHeaderControls } from "./components/upload-header-controls";
export { formatBytes } from "./format-bytes";
