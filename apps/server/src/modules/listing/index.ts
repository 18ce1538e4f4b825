export { createListingService, type ListingService } from "./service.ts";
