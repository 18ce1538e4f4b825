export { createLiveService, type LiveService } from "./service.ts";
