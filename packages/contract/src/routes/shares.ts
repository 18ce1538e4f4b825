import { RecognisedText } from "../ai-actions.ts";
import { Asset } from "../assets.ts";
import { Comment, CommentPage } from "../comments.ts";
import { ZipDownloadAnswer } from "../downloads.ts";
import { COMMENT_BODY_LIMIT } from "../drawings.ts";
import {
  DeleteShareLinkAnswer,
  SharedAssetPage,
  SharedAssetParams,
  SharedAssetsQuery,
  SharedBoard,
  SharedBoardQuery,
  SharedCommentBody,
  SharedCommentsQuery,
  SharedDownloadBody,
  SharedFieldList,
  SharedFieldParams,
  SharedFieldValueAnswer,
  SharedFieldValueBody,
  SharedPayload,
  ShareLinkParams,
  ShareLinkQuery,
  ShareLinkSummaryList,
  ShareLinkWithActivity,
  ShareTokenParams,
  UpdateShareLinkBody,
} from "../shares.ts";
import { VersionList } from "../versions.ts";
import { WatermarkedVideo } from "../watermarks.ts";
import { WorkspaceParams } from "../workspaces.ts";
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
    response: { 200: ShareLinkWithActivity },
  }),
  update: defineRoute({
    method: "PUT",
    path: "/workspaces/:id/share/:contentType/:objectId",
    summary: "Change a share link's settings: what it allows, password, expiry, on or off",
    tag,
    access,
    params: ShareLinkParams,
    body: UpdateShareLinkBody,
    response: { 200: ShareLinkWithActivity },
  }),
  remove: defineRoute({
    method: "DELETE",
    path: "/workspaces/:id/share/:contentType/:objectId",
    summary: "Delete a share link",
    tag,
    access,
    params: ShareLinkParams,
    query: ShareLinkQuery,
    response: { 200: DeleteShareLinkAnswer },
  }),

  listAll: defineRoute({
    method: "GET",
    path: "/workspaces/:id/share-links",
    tag,
    access,
    summary: "Every share link of the workspace with its state and activity (ADMIN), to review or revoke",
    params: WorkspaceParams,
    response: { 200: ShareLinkSummaryList },
  }),
};

/**
 * The public side (spec 02 §7): a visitor acts through the token. A password travels only in the
 * `X-Share-Password` header; once it is right, a cookie scoped to this link's API path carries a
 * credential bound to the link's password version, so changing the password ends it.
 * 401 password needed or wrong, 403 disabled or expired, 404 unknown token.
 */
const pub = "public";
const shared = "shared content";
export const sharedApi = {
  payload: defineRoute({
    method: "GET",
    path: "/share/:token",
    errors: [401, 403, 429],
    tag: shared,
    access: pub,
    summary:
      "The shared asset or board with its settings, comments and field values as the link allows (HEAD validates)",
    params: ShareTokenParams,
    response: { 200: SharedPayload },
  }),
  board: defineRoute({
    method: "GET",
    path: "/share/:token/board",
    errors: [401, 403, 429],
    tag: shared,
    access: pub,
    summary: "A board inside a shared board's subtree: its sub-boards and the path from the shared root",
    params: ShareTokenParams,
    query: SharedBoardQuery,
    response: { 200: SharedBoard },
  }),
  assets: defineRoute({
    method: "GET",
    path: "/share/:token/assets",
    errors: [401, 403, 429],
    tag: shared,
    access: pub,
    summary: "The assets filed in a board of the shared subtree, paged",
    params: ShareTokenParams,
    query: SharedAssetsQuery,
    response: { 200: SharedAssetPage },
  }),
  asset: defineRoute({
    method: "GET",
    path: "/share/:token/assets/:assetId",
    summary: "One asset of a shared board",
    errors: [401, 403, 429],
    tag: shared,
    access: pub,
    params: SharedAssetParams,
    response: { 200: Asset },
  }),
  versions: defineRoute({
    method: "GET",
    path: "/share/:token/assets/:assetId/versions",
    errors: [401, 403, 429],
    tag: shared,
    access: pub,
    summary:
      "Every version of a shared asset, newest first, media signed for the link (when the link shows versions; else 403)",
    params: SharedAssetParams,
    response: { 200: VersionList },
  }),
  comments: defineRoute({
    method: "GET",
    path: "/share/:token/comments",
    errors: [401, 403, 429],
    tag: shared,
    access: pub,
    summary:
      "Top-level comments of the shared asset, or with parent_id a thread's replies (when the link shows comments)",
    params: ShareTokenParams,
    query: SharedCommentsQuery,
    response: { 200: CommentPage },
  }),
  comment: defineRoute({
    method: "POST",
    path: "/share/:token/comments",
    errors: [401, 403, 429],
    tag: shared,
    access: pub,
    summary: "A visitor's comment or annotation (when the link shows comments and allows commenting)",
    params: ShareTokenParams,
    body: SharedCommentBody,
    bodyLimit: COMMENT_BODY_LIMIT,
    response: { 201: Comment },
  }),
  fields: defineRoute({
    method: "GET",
    path: "/share/:token/assets/:assetId/custom-fields",
    errors: [401, 403, 429],
    tag: shared,
    access: pub,
    summary: "Every field with the asset's value (when the link shows custom fields)",
    params: SharedAssetParams,
    response: { 200: SharedFieldList },
  }),
  recognisedText: defineRoute({
    method: "GET",
    path: "/share/:token/assets/:assetId/recognised-text",
    errors: [401, 403, 429],
    tag: shared,
    access: pub,
    summary: "Text OCR read in a shared asset, for the visitor's Details tab (issue 35)",
    params: SharedAssetParams,
    response: { 200: RecognisedText },
  }),
  setField: defineRoute({
    method: "PUT",
    path: "/share/:token/custom-fields/:fieldId",
    errors: [401, 403, 429],
    tag: shared,
    access: pub,
    summary: "A visitor's field edit (when the link allows editing custom fields)",
    params: SharedFieldParams,
    body: SharedFieldValueBody,
    response: { 200: SharedFieldValueAnswer },
  }),
  watermarkedVideo: defineRoute({
    method: "GET",
    path: "/share/:token/assets/:assetId/watermarked-video",
    errors: [401, 403, 429],
    tag: shared,
    access: pub,
    summary:
      "A shared video's watermarked copy (issue 33): starts making it when there is none; its progress, or its URL once ready",
    params: SharedAssetParams,
    response: { 200: WatermarkedVideo },
  }),
  download: defineRoute({
    method: "POST",
    path: "/share/:token/download",
    errors: [401, 403, 429],
    tag: shared,
    access: pub,
    summary:
      "A zip of a board of the shared subtree: a signed URL checked against the link when fetched (downloads allowed only)",
    params: ShareTokenParams,
    body: SharedDownloadBody,
    response: { 200: ZipDownloadAnswer },
  }),
};
