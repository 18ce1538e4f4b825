export { createSharesService, type SharesService } from "./service.ts";
