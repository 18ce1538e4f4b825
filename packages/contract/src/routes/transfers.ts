import { OkBody } from "../common.ts";
import { DownloadAnswer, DownloadBody, ZipQuery } from "../downloads.ts";
import {
  AbortUploadBody,
  CompleteUploadAnswer,
  CompleteUploadBody,
  FolderForm,
  FolderUploadAnswer,
  PartAnswer,
  PartParams,
  SignedQuery,
  UploadInitAnswer,
  UploadInitBody,
} from "../uploads.ts";
import { WorkspaceParams } from "../workspaces.ts";
import { defineRoute } from "./define.ts";

const uploads = "uploads";

export const uploadsApi = {
  // JSON, or multipart with fields name/size/content_type/board_id and optionally the `file` part
  // (its metadata is used; the bytes go to the returned URLs).
  init: defineRoute({
    method: "POST",
    path: "/workspaces/:id/assets/upload",
    summary: "Start an upload: answers where to PUT the bytes (one URL, or one per part)",
    errors: [402, 409, 413, 507],
    tag: uploads,
    access: "workspace",
    params: WorkspaceParams,
    body: UploadInitBody,
    bodyKind: "json-or-multipart",
    response: { 200: UploadInitAnswer },
  }),
  complete: defineRoute({
    method: "POST",
    path: "/workspaces/:id/assets/upload/complete",
    summary: "Complete an upload once every part is PUT: the asset is then processed",
    errors: [402, 409, 507],
    tag: uploads,
    access: "workspace",
    params: WorkspaceParams,
    body: CompleteUploadBody,
    response: { 200: CompleteUploadAnswer },
  }),
  /**
   * The uploader gives up an upload that has not completed: its asset (or, for a new version, that
   * version) goes with the bytes sent so far, at once rather than at the daily cleanup. 409 once
   * complete; 404 for an upload that is not the caller's.
   */
  abort: defineRoute({
    method: "POST",
    path: "/workspaces/:id/assets/upload/abort",
    summary: "Give up an upload that has not completed",
    errors: [409],
    tag: uploads,
    access: "workspace",
    params: WorkspaceParams,
    body: AbortUploadBody,
    response: { 200: OkBody },
  }),
  /** Multipart: `files` parts with `file_paths[n]` fields. */
  folder: defineRoute({
    method: "POST",
    path: "/workspaces/:id/upload-folder",
    summary: "Upload files with their folder paths (multipart): boards are made from the folders",
    errors: [402, 413, 507],
    tag: uploads,
    access: "workspace",
    params: WorkspaceParams,
    bodyKind: "multipart",
    form: FolderForm,
    response: { 200: FolderUploadAnswer },
  }),
  // Raw bytes to a signed URL handed out by `init`: the signature is the proof, so no CSRF.
  putPart: defineRoute({
    method: "PUT",
    path: "/uploads/:uploadId/parts/:partNumber",
    summary: "PUT one part's bytes to a URL the upload start answered (signed: no session or CSRF)",
    errors: [409, 413],
    tag: uploads,
    access: "public",
    csrf: false,
    params: PartParams,
    query: SignedQuery,
    bodyKind: "raw",
    response: { 200: PartAnswer },
  }),
};

const downloads = "downloads";

export const downloadsApi = {
  request: defineRoute({
    method: "POST",
    path: "/workspaces/:id/download",
    summary: "Ask for a zip of assets and boards: answers a signed URL to fetch it from",
    tag: downloads,
    access: "workspace",
    params: WorkspaceParams,
    body: DownloadBody,
    response: { 200: DownloadAnswer },
  }),
  // Signed URL from `request`: the signature is the proof, so no session is needed (a browser
  // download may not send one) and membership is re-checked by the service.
  zip: defineRoute({
    method: "GET",
    path: "/downloads/zip",
    summary: "The zip a download request signed (no session needed)",
    tag: downloads,
    access: "public",
    query: ZipQuery,
    answer: "bytes",
    produces: ["application/zip"],
  }),
};
