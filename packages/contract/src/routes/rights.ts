import { AssetParams } from "../assets.ts";
import { BulkRightsAnswer, BulkRightsBody, RightsAnswer, RightsBody } from "../rights.ts";
import { WorkspaceParams } from "../workspaces.ts";
import { defineRoute } from "./define.ts";

const tag = "rights";
const access = "workspace";

/** Usage rights of assets (issue 33; semantics in @hangar/contract rights.ts). */
export const rightsApi = {
  get: defineRoute({
    method: "GET",
    path: "/workspaces/:id/assets/:assetId/rights",
    summary: "An asset's usage rights and their status now",
    tag,
    access,
    params: AssetParams,
    response: { 200: RightsAnswer },
  }),
  put: defineRoute({
    method: "PUT",
    path: "/workspaces/:id/assets/:assetId/rights",
    summary: "Set an asset's usage rights as a whole (EDITOR+); keys left out are cleared",
    tag,
    access,
    params: AssetParams,
    body: RightsBody,
    response: { 200: RightsAnswer },
  }),
  bulk: defineRoute({
    method: "POST",
    path: "/workspaces/:id/assets/rights",
    summary: "Change some keys of many assets' usage rights at once (EDITOR+)",
    tag,
    access,
    params: WorkspaceParams,
    body: BulkRightsBody,
    response: { 200: BulkRightsAnswer },
  }),
};
