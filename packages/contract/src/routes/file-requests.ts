import {
  CreateFileRequestBody,
  FileRequest,
  FileRequestBoardParams,
  FileRequestList,
  FileRequestPage,
  FileRequestParams,
  FileRequestSummaryList,
  FileRequestTokenParams,
  ReceivedFileList,
  RequestUploadBody,
  UpdateFileRequestBody,
} from "../file-requests.ts";
import { DeleteShareLinkAnswer } from "../shares.ts";
import { CompleteUploadAnswer, CompleteUploadBody, UploadInitAnswer } from "../uploads.ts";
import { WorkspaceParams } from "../workspaces.ts";
import { defineRoute } from "./define.ts";

const tag = "file requests";

export const fileRequestsApi = {
  list: defineRoute({
    method: "GET",
    path: "/workspaces/:id/boards/:boardId/file-requests",
    tag,
    access: "workspace",
    summary: "The board's upload-only links",
    params: FileRequestBoardParams,
    response: { 200: FileRequestList },
  }),
  listAll: defineRoute({
    method: "GET",
    path: "/workspaces/:id/file-requests",
    tag,
    access: "workspace",
    summary: "Every upload link of the workspace, to review or revoke (ADMIN)",
    params: WorkspaceParams,
    response: { 200: FileRequestSummaryList },
  }),
  create: defineRoute({
    method: "POST",
    path: "/workspaces/:id/boards/:boardId/file-requests",
    summary: "Create an upload-only link into a board",
    tag,
    access: "workspace",
    params: FileRequestBoardParams,
    body: CreateFileRequestBody,
    response: { 201: FileRequest },
  }),
  update: defineRoute({
    method: "PATCH",
    path: "/workspaces/:id/file-requests/:requestId",
    summary: "Change a file request: title, limits, expiry, on or off",
    tag,
    access: "workspace",
    params: FileRequestParams,
    body: UpdateFileRequestBody,
    response: { 200: FileRequest },
  }),
  received: defineRoute({
    method: "GET",
    path: "/workspaces/:id/file-requests/:requestId/files",
    tag,
    access: "workspace",
    summary: "The files that came through the link (newest first, 200 at most), with the names visitors gave",
    params: FileRequestParams,
    response: { 200: ReceivedFileList },
  }),
  remove: defineRoute({
    method: "DELETE",
    path: "/workspaces/:id/file-requests/:requestId",
    summary: "Delete a file request",
    tag,
    access: "workspace",
    params: FileRequestParams,
    response: { 200: DeleteShareLinkAnswer },
  }),
};

/** The visitor's side: the page, then the upload protocol (init, the signed part URLs, complete). */
export const requestUploadsApi = {
  page: defineRoute({
    method: "GET",
    path: "/request/:token",
    operationId: "requestUploadsPage",
    errors: [401, 403, 429],
    tag,
    access: "public",
    summary: "The upload page of a file request, with what this visit has sent",
    params: FileRequestTokenParams,
    response: { 200: FileRequestPage },
  }),
  init: defineRoute({
    method: "POST",
    path: "/request/:token/upload",
    summary: "Start an upload through a file request (as with the members' upload start)",
    operationId: "requestUploadsInit",
    errors: [401, 403, 409, 413, 429],
    tag,
    access: "public",
    params: FileRequestTokenParams,
    body: RequestUploadBody,
    response: { 200: UploadInitAnswer },
  }),
  complete: defineRoute({
    method: "POST",
    path: "/request/:token/upload/complete",
    summary: "Complete an upload made through a file request",
    operationId: "requestUploadsComplete",
    errors: [401, 403, 409, 429],
    tag,
    access: "public",
    params: FileRequestTokenParams,
    body: CompleteUploadBody,
    response: { 200: CompleteUploadAnswer },
  }),
};
