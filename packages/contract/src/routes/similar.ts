import { AssetParams } from "../assets.ts";
import {
  DuplicateActionAnswer,
  DuplicateDismissBody,
  DuplicateKeepBody,
  DuplicateSettings,
  DuplicateStackBody,
  DuplicatesPage,
  DuplicatesQuery,
  SimilarAnswer,
  SimilarQuery,
} from "../similar.ts";
import { WorkspaceParams } from "../workspaces.ts";
import { defineRoute } from "./define.ts";

const tag = "similar";
const access = "workspace";

/** Similar pictures and duplicates (issue 32; semantics in @hangar/contract similar.ts). */
export const similarApi = {
  similar: defineRoute({
    method: "GET",
    path: "/workspaces/:id/assets/:assetId/similar",
    tag,
    summary: "Assets that look like this one, nearest first, with their distance",
    access,
    params: AssetParams,
    query: SimilarQuery,
    response: { 200: SimilarAnswer },
  }),
  duplicates: defineRoute({
    method: "GET",
    path: "/workspaces/:id/duplicates",
    tag,
    summary: "Groups of exact and near duplicates, largest first, with the space they take",
    access,
    params: WorkspaceParams,
    query: DuplicatesQuery,
    response: { 200: DuplicatesPage },
  }),
  keep: defineRoute({
    method: "POST",
    path: "/workspaces/:id/duplicates/keep",
    tag,
    summary: "Keep one asset of a group and move the others to Recently deleted",
    access,
    params: WorkspaceParams,
    body: DuplicateKeepBody,
    response: { 200: DuplicateActionAnswer },
  }),
  stack: defineRoute({
    method: "POST",
    path: "/workspaces/:id/duplicates/stack",
    errors: [409],
    tag,
    summary: "Stack a group's other assets as versions of the one kept",
    access,
    params: WorkspaceParams,
    body: DuplicateStackBody,
    response: { 200: DuplicateActionAnswer },
  }),
  dismiss: defineRoute({
    method: "POST",
    path: "/workspaces/:id/duplicates/dismiss",
    tag,
    summary: "Dismiss a group (not listed again unless a new member joins)",
    access,
    params: WorkspaceParams,
    body: DuplicateDismissBody,
    response: { 200: DuplicateActionAnswer },
  }),
  settings: defineRoute({
    method: "PUT",
    path: "/workspaces/:id/duplicates/settings",
    tag,
    summary: "The workspace's near-duplicate distance (ADMIN)",
    access,
    params: WorkspaceParams,
    body: DuplicateSettings,
    response: { 200: DuplicateSettings },
  }),
};
