export { createDownloadsService, type DownloadsService } from "./service.ts";
