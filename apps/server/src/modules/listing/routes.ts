import { assetsApi } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { addRoute } from "../../platform/register-route.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { ListingService } from "./service.ts";

export function listingRoutes(app: App, listing: ListingService) {
  addRoute(app, assetsApi.list, (req) => listing.list(userOf(req), req.params.id, req.body));
}
