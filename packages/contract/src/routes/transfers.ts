import { OkBody } from "../common.ts";
import { DownloadAnswer, DownloadBody, ZipQuery } from "../downloads.ts";
import {
  AbortUploadBody,
  CompleteUploadAnswer,
  CompleteUploadBody,
  FolderUploadAnswer,
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
    tag: uploads,
    access: "workspace",
    params: WorkspaceParams,
    bodyKind: "multipart",
    response: { 200: FolderUploadAnswer },
  }),
  // Raw bytes to a signed URL handed out by `init`: the signature is the proof, so no CSRF.
  putPart: defineRoute({
    method: "PUT",
    path: "/uploads/:uploadId/parts/:partNumber",
    tag: uploads,
    access: "public",
    csrf: false,
    params: PartParams,
    query: SignedQuery,
    bodyKind: "raw",
    answer: "bytes",
  }),
};

const downloads = "downloads";

export const downloadsApi = {
  request: defineRoute({
    method: "POST",
    path: "/workspaces/:id/download",
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
    tag: downloads,
    access: "public",
    query: ZipQuery,
    answer: "bytes",
  }),
};
