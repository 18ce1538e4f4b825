import { z } from "zod";
import { AssetAbilities } from "./access.ts";
import { AssetApproval } from "./approvals.ts";
import { Id } from "./common.ts";
import { AssetRights, NO_RIGHTS, RightsStatus } from "./rights.ts";
import { AssetStatus, FileType } from "./uploads.ts";

export const AssetParams = z.object({ id: Id, assetId: Id });

export const AiTag = z.object({ label: z.string(), confidence: z.number(), type: z.string() });
export const AssetPage = z.object({
  number: z.number().int(),
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** The PDF's own label of the page ("iv", "A-1") when it differs from the number. */
  label: z.string().nullable(),
});

/** Videos: frames tiled in one picture for the scrub bar's previews. */
export const AssetSprite = z.object({
  url: z.string(),
  columns: z.number().int(),
  rows: z.number().int(),
  interval: z.number(),
  width: z.number().int(),
  height: z.number().int(),
});

/** A version of an asset, briefly: its id and its number (1, 2, …; numbers of deleted versions are not reused). */
export const VersionRef = z.object({ id: Id, number: z.number().int() });
export type VersionRef = z.infer<typeof VersionRef>;

/**
 * The same bytes (sha256) already in the workspace, live or in Recently deleted, as found when the
 * upload completed: the asset and version holding them (the earliest such version).
 */
export const DuplicateOf = z.object({ asset_id: Id, version_id: Id, name: z.string() });
export type DuplicateOf = z.infer<typeof DuplicateOf>;

export const Asset = z
  .object({
    id: Id,
    abilities: AssetAbilities,
    workspace_id: Id,
    name: z.string(),
    description: z.string().nullable(),
    file_type: FileType,
    file_extension: z.string(),
    mime_type: z.string(),
    size: z.number().int(),
    status: AssetStatus,
    error: z.string().nullable(),
    url: z.string().nullable(),
    thumbnail_url: z.string().nullable(),
    grid_url: z.string().nullable(),
    video_url: z.string().nullable(),
    /** Images whose original is not browser-safe: a 2560 px picture for sharp zoom (null: zoom into `url`). */
    large_url: z.string().nullable(),
    /** Videos: frames per second (frame stepping, timecode). */
    fps: z.number().nullable(),
    /** Videos: frames tiled in one picture for the scrub bar's previews. */
    sprite: AssetSprite.nullable(),
    placeholder: z.string().nullable(),
    directory: z.string().nullable(),
    favorite: z.boolean(),
    /** Review: top-level comment threads not resolved yet. */
    open_comment_count: z.number().int(),
    /** Custom-field values in brief (for a chip on the card): the display text and the first option's colour. */
    field_chips: z.array(z.object({ field_id: Id, display: z.string(), color: z.string().nullable() })),
    tags: z.array(z.string()),
    ai_tags: z.array(z.string()),
    ai_tag_details: z.array(AiTag),
    boards: z.array(z.object({ id: Id, name: z.string() })),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    duration: z.number().nullable(),
    page_count: z.number().int().nullable(),
    pages: z.array(AssetPage),
    preview_unavailable: z.string().nullable(),
    upload_board_id: Id.nullable(),
    is_temp: z.boolean(),
    sha256: z.string().nullable(),
    exif: z
      .object({
        make: z.string().nullable(),
        model: z.string().nullable(),
        lens: z.string().nullable(),
        iso: z.number().nullable(),
        aperture: z.number().nullable(),
        exposure_time: z.number().nullable(),
        focal_length: z.number().nullable(),
        date_taken: z.string().nullable(),
        latitude: z.number().nullable(),
        longitude: z.number().nullable(),
        altitude: z.number().nullable(),
      })
      .nullable(),
    colors: z
      .object({ palette: z.array(z.object({ hex: z.string(), share: z.number() })), simplified: z.array(z.string()) })
      .nullable(),
    quality: z.object({ contrast: z.number(), sharpness: z.number(), brightness: z.number() }).nullable(),
    date_uploaded: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    /**
     * Versions (issue 29): the asset's facts and media above are its current version's. How many live
     * versions it has (1 for an asset never re-uploaded), and which one is current (this server always
     * says; the defaults only fill in answers from before versions).
     */
    version_count: z.number().int().default(1),
    current_version: VersionRef.nullable().default(null),
    /**
     * A newer version uploaded and not COMPLETED yet (uploading, processing, or failed): until it is
     * COMPLETED the asset answers with its current version; null when none.
     */
    newer_version: VersionRef.extend({ status: AssetStatus }).nullable().default(null),
    /** The current version's bytes were already in the workspace when it was uploaded (null: they were not). */
    duplicate_of: DuplicateOf.nullable().default(null),
    /**
     * Approvals (issue 30): the latest review holding the asset (canceled ones aside), its status in it
     * and the decisions that count on the current version; null when no review holds it (and for
     * visitors of public links).
     */
    approval: AssetApproval.nullable().default(null),
    /**
     * Usage rights (issue 33) and their status now: none (nothing recorded), ok, expiring (within 30
     * days), expired. Visitors of public links get neither (an expired asset is not theirs to see).
     */
    rights: AssetRights.default(NO_RIGHTS),
    rights_status: RightsStatus.default("none"),
  })
  .meta({ id: "Asset" }); // one component in the OpenAPI document (every listing and asset answer names it)
export type Asset = z.infer<typeof Asset>;

export const TagSummary = z.object({ name: z.string(), count: z.number().int() });
export const TagList = z.array(TagSummary);
export const AiTagSummary = z.object({
  name: z.string(),
  count: z.number().int(),
  type: z.string(),
  max_confidence: z.number(),
});
export const AiTagList = z.array(AiTagSummary);

const AssetIds = z.array(Id).min(1, "Send at least one asset id").max(10_000);

export const UpdateAssetBody = z
  .object({
    name: z.string().trim().min(1, "Name is required").max(255, "Name is too long").optional(),
    description: z.string().max(10_000, "Description is too long").nullable().optional(),
  })
  .strict()
  .refine((b) => b.name !== undefined || b.description !== undefined, { message: "Send a name or a description" });
export type UpdateAssetBody = z.infer<typeof UpdateAssetBody>;

/** Tags are typed comma-separated (spec 01 §5): trimmed, empties dropped, duplicates ignored (any case). */
export function normaliseTags(tags: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const t = raw.trim();
    if (!t || seen.has(t.toLowerCase())) continue;
    seen.add(t.toLowerCase());
    out.push(t);
  }
  return out;
}
/** `replace` (the default, spec 01 §5): the list becomes each asset's tags; `add`: joins theirs (issue 35). */
export const TAG_MODES = ["replace", "add"] as const;
export type TagMode = (typeof TAG_MODES)[number];
export const SetTagsBody = z.object({
  asset_ids: AssetIds,
  tags: z.array(z.string().max(100, "A tag is at most 100 characters")).max(200).transform(normaliseTags),
  mode: z.enum(TAG_MODES).default("replace"),
});
export const FavoritesBody = z.object({ asset_ids: AssetIds, favorite: z.boolean() });
export const MoveAssetsBody = z.object({
  asset_ids: AssetIds,
  destination_id: z.union([Id, z.literal("root"), z.null()]).transform((v) => (v === "root" ? null : v)),
  destination_type: z.literal("board").default("board"),
});
export const DeleteAssetsBody = z.object({ asset_ids: AssetIds });
export const CountAnswer = z.object({ status: z.literal("ok"), count: z.number().int() });

export const TrashItem = z.object({
  id: Id,
  name: z.string(),
  /** `version`: one version of an asset that is itself live (restoring it brings it back into its asset). */
  kind: z.enum(["asset", "board", "version"]),
  file_type: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  deleted_at: z.string(),
  deleted_by: z.object({ id: Id, name: z.string() }).nullable(),
  batch_id: Id.nullable(),
  purge_at: z.string(),
  /** Versions only: the asset it is a version of, and its number. */
  asset_id: Id.optional(),
  version_number: z.number().int().optional(),
});
export const TrashList = z.object({
  assets: z.array(TrashItem),
  boards: z.array(TrashItem),
  /** Versions deleted on their own (an asset deleted whole is listed once, under `assets`). */
  versions: z.array(TrashItem),
});
export const TrashSelection = z
  .object({
    asset_ids: z.array(Id).max(10_000).default([]),
    board_ids: z.array(Id).max(10_000).default([]),
    version_ids: z.array(Id).max(10_000).default([]),
  })
  .refine((b) => b.asset_ids.length + b.board_ids.length + b.version_ids.length > 0, {
    message: "Send at least one asset or board id",
  });
export const TrashAnswer = z.object({
  status: z.literal("ok"),
  assets: z.number().int(),
  boards: z.number().int(),
  /** Present when `version_ids` were sent: how many versions were restored or purged. */
  versions: z.number().int().optional(),
});
export const TRASH_RETENTION_DAYS = 30;

/** Texts of asset notifications (spec 01 §8). */
export const ASSET_MESSAGES = {
  itemsDeleted: "Items deleted successfully",
  itemsMoved: "Items moved successfully",
  renamed: "Asset renamed successfully",
  deleted: "Asset deleted successfully",
  addedTo: (name: string) => `Added to board: ${name}`,
  movedTo: (name: string) => `Moved to board: ${name}`,
  removedMany: (n: number) => `${n} asset(s) removed from board`,
  removedOne: (name: string) => `"${name}" removed from board`,
  tagsUpdated: (n: number) => `Tags updated for ${n} asset(s)`,
  deleteFailed: (detail: string) => `Failed to delete items: ${detail}`,
  moveFailed: (detail: string) => `Failed to move items: ${detail}`,
  renameFailed: "Failed to rename asset",
  deleteOneFailed: "Failed to delete asset",
  deleteSomeFailed: "Failed to delete some items",
  addFailed: "Failed to add to board",
  moveToFailed: "Failed to move to board",
  removeFailed: (detail: string) => `Failed to remove asset from board: ${detail}`,
  tagsFailed: (detail: string) => `Failed to update tags: ${detail}`,
  noAssetsSelected: "No assets selected",
  missingBoard: "Unable to remove asset: missing board information",
} as const;
