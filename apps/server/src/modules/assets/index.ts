export type { AssetLifecycle, NewAsset } from "./lifecycle-service.ts";
export { type AssetsService, createAssetsService } from "./service.ts";
