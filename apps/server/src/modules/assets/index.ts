export { type AssetsService, createAssetsService } from "./service.ts";
