import {
  type CompleteUploadBody,
  FileRequestMessages,
  type FileRequestPage,
  type RequestUploadBody,
  type UploadInitAnswer,
} from "@hangar/contract";
import type { z } from "zod";
import type { Db } from "../../db/db.ts";
import { AppError, conflict, invalid, notFound } from "../../platform/errors.ts";
import type { Limit, RateLimiter } from "../../platform/rate-limit.ts";
import { linkInactive, linkIsLive, type PublicLinks, type VisitInput } from "../public-links/index.ts";
import type { UploadsService } from "../uploads/index.ts";
import { REQUEST_LINKS, type RequestUploader } from "./kind.ts";
import { type RequestLinkRow, fileRequestsRepo as repo } from "./repo.ts";

/** A visitor of a file request: the request, who they upload as, the visit (the page's random id), the address. */
export interface RequestVisit {
  request: RequestLinkRow;
  uploader: RequestUploader;
  visitId: string | null;
  ip: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Files begun per address: plenty for a person sending a shoot, little for a script. */
const STARTS: Limit = { max: 500, windowSeconds: 600 };
/**
 * The visitor's side of a file request: the page, and the members' upload protocol (init, signed
 * part URLs, complete) on behalf of the request's maker, within the request's caps. A visitor lists
 * only the files of their own visit; nothing else of the workspace is reachable through the token.
 */
export function createRequestUploadsService(deps: {
  db: Db;
  uploads: UploadsService;
  limiter: RateLimiter;
  links: PublicLinks;
}) {
  const { db } = deps;
  const links = deps.links.kind(REQUEST_LINKS);

  const makerOf = (v: RequestVisit) => {
    // The maker left (or was deleted): the request lapses with their right to upload.
    if (!v.uploader) throw notFound(FileRequestMessages.notFound);
    return v.uploader;
  };
  const visitOf = (v: RequestVisit): string => {
    if (!v.visitId || !UUID.test(v.visitId)) throw invalid(FileRequestMessages.visit);
    return v.visitId;
  };

  return {
    /** The request behind a token, through the public links' gate (404, 403, 401, throttled). */
    async resolve(input: VisitInput, visitId: string | null): Promise<RequestVisit & { credential?: string }> {
      const { link, visitor, ip, credential } = await links.resolve(input);
      return { request: link, uploader: visitor, visitId, ip, ...(credential ? { credential } : {}) };
    },

    async page(v: RequestVisit): Promise<FileRequestPage> {
      const r = v.request;
      const uploads = v.visitId && UUID.test(v.visitId) ? await repo.visitUploads(db, r.id, v.visitId) : [];
      return {
        title: r.title,
        message: r.message,
        board_name: r.board_name,
        workspace_name: r.workspace_name,
        expires_at: r.expires_at?.toISOString() ?? null,
        max_files: r.max_files,
        max_file_bytes: r.max_file_bytes,
        files_left: Math.max(0, r.max_files - r.files_received),
        uploads: uploads.map((u) => ({
          asset_id: u.asset_id,
          name: u.name,
          size: u.size,
          status: u.status,
          created_at: u.created_at.toISOString(),
        })),
      };
    },

    async init(v: RequestVisit, body: z.output<typeof RequestUploadBody>): Promise<UploadInitAnswer> {
      const visitId = visitOf(v);
      const r = v.request;
      const maker = makerOf(v);
      if (body.size > r.max_file_bytes)
        throw new AppError("PAYLOAD_TOO_LARGE", FileRequestMessages.tooLarge(r.max_file_bytes));
      const key = `request-start:${v.ip}`;
      await deps.limiter.consume([[key, STARTS]], "Too many files from here. Try again later.");
      const uploaderName = body.uploader_name?.trim() || null;
      return deps.uploads.init(
        maker,
        r.workspace_id,
        { name: body.name, size: body.size, content_type: body.content_type, board_id: r.board_id },
        {
          inTx: async (tx, assetId) => {
            if (!(await repo.reserve(tx, r.id, body.size))) throw conflict(FileRequestMessages.full(r.max_files));
            await repo.record(tx, {
              asset_id: assetId,
              request_id: r.id,
              visit_id: visitId,
              uploader_name: uploaderName,
            });
          },
        },
      );
    },

    async complete(v: RequestVisit, body: z.output<typeof CompleteUploadBody>) {
      const visitId = visitOf(v);
      // Only this visit's own uploads: another visit's upload id is "not found", as any other.
      if (!(await repo.visitOwnsUpload(db, v.request.id, visitId, body.upload_id))) throw notFound("Upload not found.");
      return deps.uploads.complete(makerOf(v), v.request.workspace_id, body);
    },

    /** The uploads service asks before taking a part: a request closed since its upload began takes no more. */
    async partGuard(assetId: string): Promise<void> {
      const r = await repo.ofAsset(db, assetId);
      if (r && !linkIsLive(r)) throw linkInactive();
    },
  };
}
export type RequestUploadsService = ReturnType<typeof createRequestUploadsService>;
