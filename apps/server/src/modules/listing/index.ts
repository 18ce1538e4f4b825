export { createListingService, type ListingService } from "./service.ts";
export { createWaypoints, type Waypoints } from "./waypoints.ts";
