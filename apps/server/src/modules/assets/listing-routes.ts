import { AssetListAnswer, AssetListBody, WorkspaceParams } from "@hangar/contract";
import type { App } from "../../platform/http.ts";
import { userOf } from "../../platform/route-helpers.ts";
import type { ListingService } from "./listing-service.ts";

export function listingRoutes(app: App, listing: ListingService) {
  app.post(
    "/workspaces/:id/assets",
    {
      config: { access: "workspace" },
      schema: {
        tags: ["assets"],
        summary: "List assets: the filter payload of spec 01 §3 (semantics in @hangar/contract listing.ts)",
        params: WorkspaceParams,
        body: AssetListBody,
        response: { 200: AssetListAnswer },
      },
    },
    (req) => listing.list(userOf(req), req.params.id, req.body),
  );
}
