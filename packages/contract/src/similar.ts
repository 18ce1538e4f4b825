import { z } from "zod";
import { Asset } from "./assets.ts";
import { Id } from "./common.ts";

/**
 * Similar pictures and duplicates (issue 32). Every picture the pipeline renders (an image, a
 * document's first page, a video's poster and key frames) gets a 64-bit perceptual hash (pHash);
 * two pictures "look alike" when their hashes differ in few bits (the Hamming distance, 0..64).
 * Only an asset's current version counts. A re-encoded or resized copy is typically within 0–4
 * bits; unrelated pictures are around 32.
 *
 * - `GET …/assets/{assetId}/similar?max_distance=`: live assets whose picture is within
 *   `max_distance` of the asset's (of any of its frames: a video matches on its best frame), nearest
 *   first (ties by id), the asset itself aside; at most SIMILAR_LIMIT. An asset without a hash yet
 *   (still processing, audio, an archive) answers an empty list.
 * - The listing's `similar_to: {asset_id, max_distance}` is the same set as a condition, combined
 *   with every other filter and ordered by the listing's own order, or nearest first with
 *   `order_by: "distance"` (unknown asset: 422).
 * - `max_distance` is 0..SIMILAR_DISTANCE_MAX (default SIMILAR_DISTANCE_DEFAULT). The index finds
 *   every match up to the maximum (4 bands of 16 bits, each probed within 2 bits).
 */
export const SIMILAR_DISTANCE_DEFAULT = 8;
export const SIMILAR_DISTANCE_MAX = 11;
export const SIMILAR_LIMIT = 200;
/** The near-duplicate threshold a workspace starts with (its ADMIN changes it, 0..SIMILAR_DISTANCE_MAX). */
export const DUPLICATE_DISTANCE_DEFAULT = 4;
export const DUPLICATE_PAGE_SIZE_DEFAULT = 20;
export const DUPLICATE_PAGE_SIZE_MAX = 100;
/** A group's actions name at most this many assets (larger groups are resolved in parts). */
export const DUPLICATE_GROUP_MAX = 100;

export const MaxDistance = z.coerce.number().int().min(0).max(SIMILAR_DISTANCE_MAX);

export const SimilarQuery = z.object({ max_distance: MaxDistance.default(SIMILAR_DISTANCE_DEFAULT) });
export type SimilarQuery = z.input<typeof SimilarQuery>;

export const SimilarTo = z
  .object({
    asset_id: Id,
    max_distance: z.number().int().min(0).max(SIMILAR_DISTANCE_MAX).default(SIMILAR_DISTANCE_DEFAULT),
  })
  .strict();
export type SimilarTo = z.infer<typeof SimilarTo>;

export const SimilarAsset = z.object({ asset: Asset, distance: z.number().int() });
export const SimilarAnswer = z.object({
  data: z.array(SimilarAsset),
  max_distance: z.number().int(),
});
export type SimilarAnswer = z.infer<typeof SimilarAnswer>;

/**
 * `GET /workspaces/{ws}/duplicates`: groups of assets, largest first (then the space they take, then
 * the kind, exact first), `page` from 1. `exact`: the same bytes (sha256); `near`: connected by
 * pictures within the workspace's `max_distance` (a group of byte-identical assets only is listed once,
 * as exact). Near pairs are the main pictures (an image, a document's first page, a video's poster)
 * within the distance, each picture linked to its 1,000 nearest at most. `size` is the bytes of its assets, `reclaimable` what keeping one (the largest) and
 * removing the others would free. A dismissed group is not listed until a new member joins it.
 */
export const DuplicatesQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(DUPLICATE_PAGE_SIZE_MAX).default(DUPLICATE_PAGE_SIZE_DEFAULT),
});
export type DuplicatesQuery = z.input<typeof DuplicatesQuery>;

export const DuplicateKind = z.enum(["exact", "near"]);
export const DuplicateGroup = z.object({
  kind: DuplicateKind,
  /** Its members' ids, sorted: what the actions take. */
  asset_ids: z.array(Id),
  assets: z.array(Asset),
  count: z.number().int(),
  size: z.number().int(),
  reclaimable: z.number().int(),
  /** Near groups: the largest distance between two linked members (0 for exact). */
  distance: z.number().int(),
});
export type DuplicateGroup = z.infer<typeof DuplicateGroup>;

export const DuplicatesPage = z.object({
  data: z.array(DuplicateGroup),
  page: z.number().int(),
  page_size: z.number().int(),
  total_count: z.number().int(),
  has_more: z.boolean(),
  max_distance: z.number().int(),
});
export type DuplicatesPage = z.infer<typeof DuplicatesPage>;

const GroupIds = z
  .array(Id)
  .min(2, "A group has at least two assets")
  .max(DUPLICATE_GROUP_MAX, `At most ${DUPLICATE_GROUP_MAX} assets at once`);

/** Keep `keep_id` and move the group's other assets to Recently deleted. */
export const DuplicateKeepBody = z.object({ asset_ids: GroupIds, keep_id: Id }).strict();
/** Stack the group's other assets as versions of `keep_id` (versions' stack). */
export const DuplicateStackBody = DuplicateKeepBody;
/** Dismiss the group: not listed again unless an asset outside `asset_ids` joins it. */
export const DuplicateDismissBody = z.object({ asset_ids: GroupIds }).strict();
export type DuplicateKeepBody = z.infer<typeof DuplicateKeepBody>;
export type DuplicateDismissBody = z.infer<typeof DuplicateDismissBody>;

export const DuplicateActionAnswer = z.object({ status: z.literal("ok"), count: z.number().int() });

export const DuplicateSettings = z.object({ max_distance: z.number().int().min(0).max(SIMILAR_DISTANCE_MAX) }).strict();
export type DuplicateSettings = z.infer<typeof DuplicateSettings>;

/** Texts of the refusals (shown as they are). */
export const SIMILAR_MESSAGES = {
  unknownAsset: "No such asset in this workspace.",
  keepOutside: "The asset to keep must be one of the group's.",
  distanceOrder: "Sorting by distance needs similar_to.",
};
