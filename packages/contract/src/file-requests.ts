import { z } from "zod";
import { formatBytes } from "./bytes.ts";
import { Id } from "./common.ts";
import { SHARE_PASSWORD_MAX } from "./shares.ts";
import { UploadInitBody } from "./uploads.ts";

/**
 * "Request files" (issue 17): an upload-only link for a board. Visitors upload into the board through
 * the same upload protocol as members (init, signed part URLs, complete), within the link's caps,
 * and see only what they uploaded in their visit. Managed by ADMIN and EDITOR, like share links.
 */
export const FILE_REQUEST_DEFAULTS = { max_files: 50, max_file_bytes: 2 * 1024 ** 3 } as const;
export const FILE_REQUEST_MAX_FILES = 10_000;
/** The visit a visitor's uploads belong to: a random id the page keeps for its tab (sessionStorage). */
export const REQUEST_VISIT_HEADER = "x-request-visit";

export const FileRequestMessages = {
  notFound: "This upload link does not exist.",
  full: (max: number) => `This upload link takes at most ${max} files, and they have all been sent.`,
  tooLarge: (maxBytes: number) => `Files sent through this link can be at most ${formatBytes(maxBytes)}.`,
  serverCap: (maxBytes: number) => `Files can be at most ${formatBytes(maxBytes)} on this server.`,
  visit: "The page lost its visit; reload it and try again.",
} as const;

const Title = z.string().trim().max(120, "The title is too long");
const Message = z.string().trim().max(1000, "The message is too long");

export const FileRequest = z.object({
  id: Id,
  board_id: Id,
  token: z.string(),
  path: z.string(),
  title: z.string(),
  message: z.string(),
  is_active: z.boolean(),
  expires_at: z.string().nullable(),
  has_password: z.boolean(),
  max_files: z.number().int(),
  max_file_bytes: z.number().int(),
  files_received: z.number().int(),
  bytes_received: z.number().int(),
  last_upload_at: z.string().nullable(),
  created_at: z.string(),
});
export type FileRequest = z.infer<typeof FileRequest>;
export const FileRequestList = z.array(FileRequest);
/** Settings → Share links (ADMIN): every upload link of the workspace, with its board and maker. */
export const FileRequestSummary = FileRequest.extend({
  board_name: z.string(),
  created_by_name: z.string().nullable(),
});
export type FileRequestSummary = z.infer<typeof FileRequestSummary>;
export const FileRequestSummaryList = z.array(FileRequestSummary);

export const CreateFileRequestBody = z.object({
  title: Title.optional(),
  message: Message.optional(),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  password: z.string().max(SHARE_PASSWORD_MAX).nullable().optional(),
  max_files: z.number().int().min(1).max(FILE_REQUEST_MAX_FILES).optional(),
  max_file_bytes: z.number().int().min(1).optional(),
});
export type CreateFileRequestBody = z.input<typeof CreateFileRequestBody>;
export const UpdateFileRequestBody = CreateFileRequestBody.extend({ is_active: z.boolean().optional() });
export type UpdateFileRequestBody = z.input<typeof UpdateFileRequestBody>;

export const FileRequestBoardParams = z.object({ id: Id, boardId: Id });
export const FileRequestParams = z.object({ id: Id, requestId: Id });
export const FileRequestTokenParams = z.object({ token: z.string().min(1).max(200) });

/** One file a visitor sent in this visit, as the page lists it. */
export const RequestUpload = z.object({
  asset_id: Id,
  name: z.string(),
  size: z.number().int(),
  status: z.string(),
  created_at: z.string(),
});
export type RequestUpload = z.infer<typeof RequestUpload>;

/** A file that came through a request, as its members see it: with the name the visitor gave. */
export const ReceivedFile = z.object({
  asset_id: Id,
  name: z.string(),
  size: z.number().int(),
  status: z.string(),
  uploader_name: z.string().nullable(),
  created_at: z.string(),
});
export type ReceivedFile = z.infer<typeof ReceivedFile>;
export const ReceivedFileList = z.array(ReceivedFile);

/** What the public upload page shows: the request (never its token's secrets or password), and the visit's files. */
export const FileRequestPage = z.object({
  title: z.string(),
  message: z.string(),
  board_name: z.string(),
  workspace_name: z.string(),
  expires_at: z.string().nullable(),
  max_files: z.number().int(),
  max_file_bytes: z.number().int(),
  files_left: z.number().int(),
  uploads: z.array(RequestUpload),
});
export type FileRequestPage = z.infer<typeof FileRequestPage>;

/** A visitor's file: its name, size and type, with an optional name of who sends it. */
// A visitor's file is always a new asset of the request's board: no versions, no duplicate look-up.
export const RequestUploadBody = UploadInitBody.omit({ board_id: true, version_of: true, sha256: true }).extend({
  uploader_name: z.string().trim().max(200).nullish(),
});
export type RequestUploadBody = z.input<typeof RequestUploadBody>;
