import type {
  CreateFileRequestBody,
  FileRequest,
  FileRequestSummary,
  ReceivedFile,
  UpdateFileRequestBody,
} from "@hangar/contract";
import { FILE_REQUEST_DEFAULTS, FileRequestMessages } from "@hangar/contract";
import type { z } from "zod";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace } from "../../platform/access.ts";
import type { Actor } from "../../platform/actor.ts";
import { invalid, notFound } from "../../platform/errors.ts";
import type { BoardsService } from "../boards/index.ts";
import { gateChanges, gateOnCreate, gateView, linkPage, newLinkToken } from "../public-links/index.ts";
import { REQUEST_LINKS } from "./kind.ts";
import { FILE_REQUEST } from "./policy.ts";
import { type FileRequestRow, fileRequestsRepo as repo } from "./repo.ts";

export const toFileRequest = (r: FileRequestRow): FileRequest => ({
  id: r.id,
  board_id: r.board_id,
  token: r.token,
  path: linkPage(REQUEST_LINKS, r.token),
  title: r.title,
  message: r.message,
  ...gateView(r),
  max_files: r.max_files,
  max_file_bytes: r.max_file_bytes,
  files_received: r.files_received,
  bytes_received: r.bytes_received,
  last_upload_at: r.last_upload_at?.toISOString() ?? null,
  created_at: r.created_at.toISOString(),
});

/**
 * Managing a board's file requests (issue 17 "Request files"): whoever may share the board (ADMIN,
 * EDITOR) creates, edits and deletes its upload-only links; COMMENTER 403, an outsider 404 (the
 * access layer). The public side is public-service.ts.
 */
export function createFileRequestsService(deps: {
  db: Db;
  access: Access;
  boards: BoardsService;
  maxUploadBytes: number;
}) {
  const { db, access } = deps;

  /** The caller may manage the board's request links (`requestId`: one of them); answers the member's id. */
  async function mayManage(
    actor: Actor,
    workspaceId: string,
    boardId: string,
    requestId: string | null = null,
  ): Promise<string | null> {
    const resource = { kind: "file_request" as const, workspaceId, boardId, requestId };
    const grant = await access.require(actor, FILE_REQUEST.manage, resource);
    await deps.boards.assertFileable(workspaceId, boardId);
    return grant.kind === "member" ? grant.userId : null;
  }
  async function existing(actor: Actor, workspaceId: string, requestId: string) {
    const row = await repo.byId(db, workspaceId, requestId);
    // Not in this workspace, or not the caller's to see: the same answer.
    if (!row) throw notFound("File request not found.");
    await mayManage(actor, workspaceId, row.board_id, row.id);
    return row;
  }
  function checkCaps(body: { max_file_bytes?: number | undefined }) {
    if (body.max_file_bytes !== undefined && body.max_file_bytes > deps.maxUploadBytes) {
      const detail = FileRequestMessages.serverCap(deps.maxUploadBytes);
      throw invalid(detail, [{ field: "max_file_bytes", message: detail }]);
    }
  }

  return {
    /** Every upload link of the workspace, to review or revoke (ADMIN, as share links are). */
    async listAll(actor: Actor, workspaceId: string): Promise<FileRequestSummary[]> {
      await access.require(actor, FILE_REQUEST.review, inWorkspace(workspaceId));
      return (await repo.listAll(db, workspaceId)).map((r) => ({
        ...toFileRequest(r),
        board_name: r.board_name,
        created_by_name: r.created_by_name,
      }));
    },
    async list(actor: Actor, workspaceId: string, boardId: string): Promise<FileRequest[]> {
      await mayManage(actor, workspaceId, boardId);
      return (await repo.forBoard(db, workspaceId, boardId)).map(toFileRequest);
    },
    async create(
      actor: Actor,
      workspaceId: string,
      boardId: string,
      body: z.output<typeof CreateFileRequestBody>,
    ): Promise<FileRequest> {
      const userId = await mayManage(actor, workspaceId, boardId);
      checkCaps(body);
      const row = await repo.create(db, {
        workspace_id: workspaceId,
        board_id: boardId,
        token: newLinkToken(),
        title: body.title ?? "",
        message: body.message ?? "",
        ...(await gateOnCreate(body)),
        max_files: body.max_files ?? FILE_REQUEST_DEFAULTS.max_files,
        max_file_bytes: body.max_file_bytes ?? Math.min(FILE_REQUEST_DEFAULTS.max_file_bytes, deps.maxUploadBytes),
        created_by: userId,
      });
      return toFileRequest(row);
    },
    async update(
      actor: Actor,
      workspaceId: string,
      requestId: string,
      body: z.output<typeof UpdateFileRequestBody>,
    ): Promise<FileRequest> {
      const row = await existing(actor, workspaceId, requestId);
      checkCaps(body);
      const patch: Parameters<typeof repo.update>[2] = {};
      if (body.title !== undefined) patch.title = body.title;
      if (body.message !== undefined) patch.message = body.message;
      if (body.is_active !== undefined) patch.is_active = body.is_active;
      if (body.max_files !== undefined) patch.max_files = body.max_files;
      if (body.max_file_bytes !== undefined) patch.max_file_bytes = body.max_file_bytes;
      Object.assign(patch, await gateChanges(body));
      return toFileRequest(await repo.update(db, row.id, patch));
    },
    /** One request as its list answers it (webhooks' upload_link.received). */
    async get(actor: Actor, workspaceId: string, requestId: string): Promise<FileRequest> {
      return toFileRequest(await existing(actor, workspaceId, requestId));
    },
    async received(actor: Actor, workspaceId: string, requestId: string): Promise<ReceivedFile[]> {
      const row = await existing(actor, workspaceId, requestId);
      return (await repo.received(db, row.id)).map((f) => ({
        asset_id: f.asset_id,
        name: f.name,
        size: f.size,
        status: f.status,
        uploader_name: f.uploader_name,
        created_at: f.created_at.toISOString(),
      }));
    },
    async remove(actor: Actor, workspaceId: string, requestId: string) {
      const row = await existing(actor, workspaceId, requestId);
      await repo.remove(db, row.id);
      return { status: "ok" as const };
    },
  };
}
export type FileRequestsService = ReturnType<typeof createFileRequestsService>;
