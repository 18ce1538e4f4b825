export { createSharedService, type SharedService } from "./public-service.ts";
export { createSharesService, type SharesService } from "./service.ts";
export { createVisitorResolver, SHARE_LINKS, type Visit, type VisitorResolver } from "./visitor.ts";
