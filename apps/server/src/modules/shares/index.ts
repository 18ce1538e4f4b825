export { createSharedService, type SharedService } from "./public-service.ts";
export { createSharesService, type SharesService } from "./service.ts";
export { createVisitorResolver, type VisitorResolver } from "./visitor.ts";
