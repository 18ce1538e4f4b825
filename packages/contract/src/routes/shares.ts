import { DeleteShareLinkAnswer, ShareLink, ShareLinkParams, ShareLinkQuery, UpdateShareLinkBody } from "../shares.ts";
import { defineRoute } from "./define.ts";

const tag = "share links";
const access = "workspace";

export const sharesApi = {
  get: defineRoute({
    method: "GET",
    path: "/workspaces/:id/share/:contentType/:objectId",
    tag,
    access,
    summary: "The link of an asset (in a board) or a board, created with the default flags when there is none",
    params: ShareLinkParams,
    query: ShareLinkQuery,
    response: { 200: ShareLink },
  }),
  update: defineRoute({
    method: "PUT",
    path: "/workspaces/:id/share/:contentType/:objectId",
    tag,
    access,
    params: ShareLinkParams,
    body: UpdateShareLinkBody,
    response: { 200: ShareLink },
  }),
  remove: defineRoute({
    method: "DELETE",
    path: "/workspaces/:id/share/:contentType/:objectId",
    tag,
    access,
    params: ShareLinkParams,
    query: ShareLinkQuery,
    response: { 200: DeleteShareLinkAnswer },
  }),
};
