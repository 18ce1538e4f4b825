import { Asset, AssetParams } from "../assets.ts";
import { StackVersionsBody, VersionList, VersionParams } from "../versions.ts";
import { defineRoute } from "./define.ts";

const tag = "versions";
const access = "workspace";

/** Versions of an asset (issue 29; semantics in @hangar/contract versions.ts). */
export const versionsApi = {
  list: defineRoute({
    method: "GET",
    path: "/workspaces/:id/assets/:assetId/versions",
    tag,
    summary: "Every version of the asset, newest first",
    access,
    params: AssetParams,
    response: { 200: VersionList },
  }),
  makeCurrent: defineRoute({
    method: "POST",
    path: "/workspaces/:id/assets/:assetId/versions/:versionId/current",
    errors: [409],
    tag,
    summary: "Make a version current (its media become the asset's); answers the asset",
    access,
    params: VersionParams,
    response: { 200: Asset },
  }),
  remove: defineRoute({
    method: "DELETE",
    path: "/workspaces/:id/assets/:assetId/versions/:versionId",
    errors: [409],
    tag,
    summary:
      "Move a version to Recently deleted (never the only one: 409); deleting the current one makes the newest remaining current. Answers the asset",
    access,
    params: VersionParams,
    response: { 200: Asset },
  }),
  stack: defineRoute({
    method: "POST",
    path: "/workspaces/:id/assets/:assetId/versions/stack",
    errors: [409],
    tag,
    summary: "Make other assets versions of this one (ordered by upload time); answers the asset",
    access,
    params: AssetParams,
    body: StackVersionsBody,
    response: { 200: Asset },
  }),
  detach: defineRoute({
    method: "POST",
    path: "/workspaces/:id/assets/:assetId/versions/:versionId/detach",
    errors: [409],
    tag,
    summary: "Make a version an asset of its own (with its comments); answers the new asset",
    access,
    params: VersionParams,
    response: { 200: Asset },
  }),
};
