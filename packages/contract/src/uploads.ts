import { z } from "zod";
import { FilePart, Id } from "./common.ts";

export const MIB = 1024 * 1024;
/** Files up to this size get one direct URL; larger ones go multipart (S3's rules: parts ≥ 5 MiB but the last, ≤ 10,000 parts). */
export const DIRECT_UPLOAD_MAX_BYTES = 5 * MIB;
export const MIN_PART_BYTES = 5 * MIB;
export const MAX_PARTS = 10_000;
/** The client polls each processing asset this often (spec 01 §9). */
export const PROCESSING_POLL_MS = 2000;

export const FILE_TYPES = ["IMAGE", "VIDEO", "DOCUMENT", "AUDIO", "ARCHIVE", "OTHER"] as const;
export const FileType = z.enum(FILE_TYPES);
export type FileType = z.infer<typeof FileType>;
export const ASSET_STATUSES = ["uploading", "processing", "COMPLETED", "error"] as const;
export const AssetStatus = z.enum(ASSET_STATUSES);

/** A file's SHA-256, as 64 hex digits (any case; kept in lower case). */
export const Sha256 = z
  .string()
  .trim()
  .regex(/^[0-9a-fA-F]{64}$/, "sha256 must be 64 hex digits")
  .transform((s) => s.toLowerCase());

export const UploadInitBody = z.object({
  name: z.string().trim().min(1, "A file name is required").max(255, "The file name is too long"),
  size: z.coerce.number().int().min(0, "Size must be 0 or more"),
  content_type: z.string().trim().max(255).optional(),
  board_id: Id.nullish(),
  /**
   * Versions (issue 29): an asset of this workspace the file becomes the newest version of, once
   * COMPLETED (the asset keeps its id, name, boards, tags, fields and links). EDITOR and ADMIN.
   * `board_id` is ignored with it: the asset keeps its place.
   */
  version_of: Id.nullish(),
  /**
   * The file's SHA-256 as the client computed it (optional): the answer then lists the versions in
   * the workspace holding the same bytes (`duplicates`). Nothing is refused for being a duplicate;
   * the server hashes the bytes itself at completion in any case.
   */
  sha256: Sha256.nullish(),
});
export type UploadInitBody = z.infer<typeof UploadInitBody>;

export const UploadPart = z.object({
  part_number: z.number().int().min(1),
  start_byte: z.number().int().min(0),
  end_byte: z.number().int().min(0),
  url: z.string(),
});
export type UploadPart = z.infer<typeof UploadPart>;

/** A version in the workspace (live or in Recently deleted) holding the same bytes as the file being uploaded. */
export const UploadDuplicate = z.object({
  asset_id: Id,
  version_id: Id,
  version_number: z.number().int(),
  /** The asset's name. */
  name: z.string(),
  /** The asset's live boards (none: it is at the root). */
  boards: z.array(z.object({ id: Id, name: z.string() })),
  /** In Recently deleted (the asset, or this version of it). */
  deleted: z.boolean(),
});
export type UploadDuplicate = z.infer<typeof UploadDuplicate>;

export const UploadInitAnswer = z.object({
  asset_id: Id,
  upload_id: Id,
  key: z.string(),
  direct_url: z.string().optional(),
  parts: z.array(UploadPart).optional(),
  part_size: z.number().int().optional(),
  /** With `version_of`: the new version's id and number (it becomes current once COMPLETED). */
  version_id: Id.optional(),
  version_number: z.number().int().optional(),
  /** With `sha256`: the same bytes already in the workspace, oldest first (empty: none). */
  duplicates: z.array(UploadDuplicate).optional(),
});
export type UploadInitAnswer = z.infer<typeof UploadInitAnswer>;

export const CompleteUploadBody = z.object({
  upload_id: Id,
  key: z.string().min(1).max(500),
  parts: z
    .array(z.object({ part_number: z.number().int().min(1).max(MAX_PARTS), etag: z.string().min(1).max(200) }))
    .max(MAX_PARTS)
    .default([]),
});
/** An upload given up before it completed (Skip at a duplicate, Cancel): named as for complete. */
export const AbortUploadBody = z.object({ upload_id: Id, key: z.string().min(1).max(500) }).strict();
export type AbortUploadBody = z.infer<typeof AbortUploadBody>;
export const CompleteUploadAnswer = z.object({
  status: z.literal("ok"),
  asset_id: Id,
  size: z.number().int(),
  sha256: z.string(),
});

export const PartParams = z.object({ uploadId: Id, partNumber: z.coerce.number().int().min(1).max(MAX_PARTS) });
export const SignedQuery = z.object({ exp: z.string().max(20), sig: z.string().max(100) });

/** A part's bytes arrived: its ETag, for the complete call (also in the `ETag` header). */
export const PartAnswer = z.object({ status: z.literal("ok"), etag: z.string() });

/** The folder upload's form, for the OpenAPI document (the handler reads the parts as they stream). */
export const FolderForm = z.object({
  files: z.array(FilePart).describe("One part per file, in order"),
  "file_paths[0]": z
    .string()
    .optional()
    .describe("The relative path of the first file (`file_paths[n]` for the nth); boards are made from its folders"),
  parent_board_id: Id.optional().describe("The board the folders go into (default: the root)"),
});

export const FolderUploadAnswer = z.object({
  status: z.literal("ok"),
  assets: z.array(z.object({ asset_id: Id, name: z.string(), board_id: Id.nullable(), path: z.string() })),
  boards_created: z.number().int(),
});

/** Texts of the upload dialog (spec 01 §5, §8). */
export const UPLOAD_MESSAGES = {
  failed: (status: number | string, detail = "") => `Upload failed: ${status}${detail ? ` ${detail}` : ""}`,
  partFailed: (detail = "") => `Part upload failed${detail ? ` ${detail}` : ""}`,
  network: "S3 upload failed: Network error",
  noWorkspace: "Workspace ID is not set",
  invalidInfo: "Invalid upload info received from server",
  noEtag: "No ETag received from S3",
} as const;
