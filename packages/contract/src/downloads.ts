import { z } from "zod";
import { Id } from "./common.ts";
import { MAX_PARTS, MIB } from "./uploads.ts";

/** Spec 01 §9: the client asks for parts above 5 MiB, 2 MiB each. */
export const DOWNLOAD_MULTIPART_THRESHOLD = 5 * MIB;
export const DOWNLOAD_PART_SIZE = 2 * MIB;
/** Smallest part the server hands out (keeps a parts list under MAX_PARTS for any sane file). */
export const MIN_DOWNLOAD_PART_BYTES = 64 * 1024;
/**
 * Ids a zip request may name one by one: the zip URL carries them signed (16 bytes each), and a
 * request line must stay well under Node's 16 KiB header limit. Whole boards have no limit.
 */
export const MAX_ZIP_ASSET_IDS = 400;
export const MAX_ZIP_BOARD_IDS = 50;

/** Spec 01 §8, the client's download messages (outer per kind; inner for the transfer itself). */
export const DOWNLOAD_MESSAGES = {
  assetFailed: "Failed to download asset",
  boardFailed: "Failed to download board",
  itemsFailed: "Failed to download items",
  fileFailed: "Failed to download file",
  partFailed: (n: number) => `Failed to download part ${n}`,
  invalidResponse: "Invalid download response",
} as const;

export const DOWNLOAD_ERRORS = {
  nothing: "Must provide at least one asset ID or board ID",
  noAsset: "No asset provided",
  noBoard: "No board provided",
} as const;

/**
 * POST /workspaces/{id}/download, the three shapes of spec 01 §7, told apart by the keys sent:
 * - single asset: `asset_ids` with at most one id and no `board_ids` (or only `use_multipart` /
 *   `part_size`); an empty list answers "No asset provided".
 * - board: `board_ids` and no `asset_ids`; an empty list answers "No board provided".
 * - unified: anything else (both keys, several asset ids); nothing at all answers
 *   "Must provide at least one asset ID or board ID".
 */
export const DownloadBody = z.object({
  asset_ids: z.array(Id).max(MAX_ZIP_ASSET_IDS, `At most ${MAX_ZIP_ASSET_IDS} asset IDs`).optional(),
  board_ids: z.array(Id).max(MAX_ZIP_BOARD_IDS, `At most ${MAX_ZIP_BOARD_IDS} board IDs`).optional(),
  use_multipart: z.boolean().optional(),
  part_size: z
    .number()
    .int()
    .min(MIN_DOWNLOAD_PART_BYTES, `part_size must be at least ${MIN_DOWNLOAD_PART_BYTES}`)
    .optional(),
  include_subboards: z.boolean().optional(),
  flatten_structure: z.boolean().optional(),
  /** One asset only: this version of it (absent: the current version, as zips always take). */
  version_id: Id.optional(),
});
export type DownloadBody = z.infer<typeof DownloadBody>;

/** One byte range of the original (inclusive, as in HTTP): GET `url` with `Range: bytes=start-end`. */
export const DownloadPart = z.object({
  part_number: z.number().int().min(1),
  start_byte: z.number().int().min(0),
  end_byte: z.number().int().min(0),
  url: z.string(),
});
export type DownloadPart = z.infer<typeof DownloadPart>;

/** What the client needs to save the joined file under the right name and type. */
const FileFacts = {
  filename: z.string(),
  size: z.number().int().min(0),
  mime_type: z.string(),
};
export const DirectDownloadAnswer = z.object({ direct_url: z.string(), ...FileFacts });
export const MultipartDownloadAnswer = z.object({
  parts: z.array(DownloadPart).max(MAX_PARTS),
  part_size: z.number().int(),
  ...FileFacts,
});
/** A signed, expiring URL of a zip streamed on GET; `filename` is also its Content-Disposition. */
export const ZipDownloadAnswer = z.object({ download_url: z.string(), filename: z.string() });
export const DownloadAnswer = z.union([DirectDownloadAnswer, MultipartDownloadAnswer, ZipDownloadAnswer]);
export type DownloadAnswer = z.infer<typeof DownloadAnswer>;

/**
 * GET /api/v1/downloads/zip?spec=&exp=&sig= (the signature covers the spec, so no session is needed).
 * Missing or wrong, the signature answers 404 like any unknown URL (never a hint of what is expected).
 */
export const ZipQuery = z.object({
  spec: z.string().max(12_000).optional(),
  exp: z.string().max(20).optional(),
  sig: z.string().max(100).optional(),
});
