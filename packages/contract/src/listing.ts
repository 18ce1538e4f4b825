import { z } from "zod";
import { ApprovalStatus } from "./approvals.ts";
import { Asset } from "./assets.ts";
import { Id } from "./common.ts";
import { PeopleFilter } from "./people.ts";
import { RightsExpireFilter, RightsLicenseFilter } from "./rights.ts";
import { SimilarTo } from "./similar.ts";
import { FileType } from "./uploads.ts";

/**
 * Asset listing: `POST /workspaces/{id}/assets` with the filter payload of spec 01 §3 as its body.
 *
 * Semantics (quote this in the README / API docs):
 * - Every key present is a condition; conditions combine with AND. An absent key (or an empty list)
 *   adds no condition.
 * - `or_groups`: each group is the AND of its own keys; the groups are ORed with each other, and that
 *   OR is ANDed with every other top-level key. A group with no key is refused (422): the client sends
 *   groups only when non-empty, and an empty group would silently match everything.
 * - `includes` means "any of" the values; `excludes` means "none of" them. Values of file_type are
 *   upper case (IMAGE, VIDEO, DOCUMENT, AUDIO, ARCHIVE, OTHER); file extensions, tags, AI tag labels,
 *   camera makes and models compare case-insensitively (extensions with or without the dot).
 * - In a group, tags are `{any_of, all_of, none_of}`: at least one of / every one of / none of.
 * - `search`: every word must be found (AND of words) in the asset's name, description, manual tags,
 *   AI tags or EXIF text (camera make, model, lens); case and accent insensitive ("cafe" finds
 *   "Café"). A word matches as a substring (trigram index) or as an English word stem (full-text).
 * - `favorite`: the caller's own favourites (true: only them; false: all but them).
 * - `has_open_comments`: true: assets with at least one unresolved comment thread (on any version); false: none.
 * - `approval_status` (issue 30): the asset's status in the latest review holding it (canceled reviews
 *   aside): none, in_review, approved, approved_with_changes, changes_requested, rejected; includes
 *   "any of", excludes "none of".
 * - `similar_to` (issue 32): assets whose picture is within `max_distance` bits of `asset_id`'s (see
 *   similar.ts), the asset itself aside; an unknown asset is refused (422).
 * - `people` (issue 32): includes: assets whose current version shows any of these people; excludes:
 *   none of them (see people.ts). Unknown ids match nothing.
 * - `rights_expire`, `no_release`, `rights_license` (issue 33): see rights.ts.
 * - `has_versions`: true: assets with more than one live version; false: assets with one. Every other
 *   condition (type, size, dates, EXIF…) applies to an asset's current version; each asset is listed once.
 * - Dates are ISO 8601 instants or plain dates (UTC). `_from` is inclusive; `_to` is inclusive, and a
 *   plain date `_to` covers that whole day.
 * - `ai_tags`: labels in includes/excludes match AI tags and manual tags alike; `ai_only` restricts the
 *   match to AI tags, `manual_only` to manual tags (both at once: 422). `tag_types` and `min_confidence`
 *   qualify the AI tags that count (manual tags have neither). With no includes, `ai_only`, `tag_types`
 *   or `min_confidence` select assets having at least one qualifying AI tag, and `manual_only` assets
 *   having at least one manual tag.
 * - `colors.color_search` (a hex colour, "#rrggbb" or "#rgb") and `colors.dominant_colors` (hex colours)
 *   match an asset's dominant colours — palette colours covering at least 5% of the image — by
 *   perceptual distance: CIE76 ΔE in CIELAB ≤ 20 (COLOR_MATCH_DELTA_E; ~2.3 is a just-noticeable
 *   difference, 20 is "the same colour family"). `simplified_colors.includes` takes colour names
 *   (red, orange, yellow, green, blue, purple, pink, brown, black, white, gray): any of them.
 * - `image_quality` and `exif` ranges are inclusive; an asset without the value never matches a range.
 *   `exif.location.has_gps` true: has latitude and longitude; false: has not. `exif_search` searches
 *   camera make, model and lens; `camera_search` make and model (substring, case/accent insensitive).
 * - `custom_fields`: per field, option any of / all of / none of, text contains, a date range, is empty
 *   (see CustomFieldsFilter); at the top level and inside or_groups.
 * - `board_id`: only assets directly in that board (not its sub-boards); 404 unless it is a live board
 *   of this workspace.
 * - Listed: assets that are not deleted and not temporary (`is_temp` false: the pipeline finished,
 *   COMPLETED or error). Uploading/processing assets are shown by the upload dialog, which merges them
 *   into the list when COMPLETED.
 * - `order_by`: date_uploaded, name, size, date_taken, file_type, each ascending or with "-" descending
 *   (default -date_uploaded). Ties break on the asset id in the same direction, so pages are stable.
 *   Assets without a date_taken come last in both directions. Names sort case-insensitively.
 *   `distance` (only with `similar_to`, 422 otherwise): nearest first, ties by id — the web grid's
 *   order for `similar_to` when no other is chosen.
 * - `page` from 1; `page_size` 1..100 (default 10). A page beyond the end answers empty data.
 * - `cursor` (issue 36): instead of `page`, the `pagination.next_cursor` of the page before (same filter
 *   and order_by; 422 with another order_by, or with a page other than 1). It names the last asset's
 *   sort key and id, so the next page starts right after it in the listing's order (a keyset seek on
 *   the order's index): each page of a walk costs what the first does, whatever its depth, filter and
 *   order, and assets added during a walk never repeat or hide one that was there when it started (an
 *   asset whose sort key changes meanwhile may move across the cursor). A cursor page answers
 *   `page: 0` (its number is not counted); total_count is the whole listing's, as on page 1. Opaque:
 *   one the server did not make answers 422.
 * - Counting (designed for 1,000,000 assets in a workspace; counting every match of a broad filter costs
 *   far more than the page itself, so the server never does):
 *   - no filter (the whole workspace, in any order): exact, the sum of a per-upload-day count table the
 *     database keeps with triggers (one row per day, however many assets);
 *   - a filter: PostgreSQL's planner estimate first (a plan, no scan). Above EXACT_COUNT_LIMIT, or when
 *     its plan for finding every match is dear (a scan of all assets: no index serves the filter),
 *     that estimate is the answer, flagged `pagination.count_is_estimate: true`. Otherwise the matches
 *     are counted, stopping at EXACT_COUNT_LIMIT + 1: exact when at most EXACT_COUNT_LIMIT, else
 *     EXACT_COUNT_LIMIT + 1 flagged as an estimate (a lower bound). When the estimate is rough (text
 *     search, EXIF text, AI qualifiers, custom-field values) the count stops at 1,501 instead: exact
 *     up to 1,500, else the larger of the estimate and 1,501, flagged;
 *   - what the page saw wins: a last page makes the count exact (not flagged), and an estimate is
 *     never below the matches already seen.
 *   An estimate can be off (the planner assumes independent conditions, and guesses search words it
 *   has no statistics for); it says so. total_pages follows total_count; has_more is always exact
 *   (the page asks for one row more).
 * - Finding a page: ids only, on indexes over listable assets, one per order_by (each ending in the id
 *   tie-breaker), then joined to their rows in the same statement. Usually the order index is walked
 *   until the page fills; when the planner expects few matches (≤ 1,500), or its estimate is rough
 *   and small (search, EXIF text, AI qualifiers, custom-field values), up to 1,500 matches are first
 *   found through the filter's indexes and sorted, so a search matching nothing does not walk a million
 *   rows (a shallow page of a filter rough by text or AI qualifiers reads the first 1,000 assets in
 *   order before that; more than 1,500 matches: the order index is walked). Tag filters use per-asset arrays of tag
 *   names with GIN indexes (the planner knows each tag's frequency).
 * - Deep pages: unfiltered by upload date, a deep page skips whole upload days using the day counts,
 *   so page 5,000 costs about as much as page 1. Every page also leaves a waypoint (where it ended,
 *   kept until anything in the workspace changes), and a page at offset 1,000 or deeper that has one
 *   at or before it continues from there: the next page of a scroll costs about what page 1 does, in
 *   any order but date_taken. A page asked with no waypoint before it (a jump) walks the matches
 *   before it (index entries for the order, the rows for the filter), in proportion to its depth.
 * Unknown keys and bad values answer 422 with `errors[].field` naming them.
 */

export const EXACT_COUNT_LIMIT = 10_000;
export const LISTING_PAGE_SIZE_DEFAULT = 10;
export const LISTING_PAGE_SIZE_MAX = 100;
/** A cursor is a few dozen characters (a name sort key at most ~1,400). */
export const LISTING_CURSOR_MAX_LENGTH = 2_000;
/** Two colours match when their CIE76 ΔE is at most this (same value as the media pipeline's). */
export const LISTING_COLOR_DELTA_E = 20;
/** A palette colour is "dominant" from this share of the image (the pipeline's simplified-name share). */
export const LISTING_DOMINANT_MIN_SHARE = 0.05;

export const LISTING_ORDERS = [
  "date_uploaded",
  "-date_uploaded",
  "name",
  "-name",
  "size",
  "-size",
  "date_taken",
  "-date_taken",
  "file_type",
  "-file_type",
  "distance",
] as const;
export const ListingOrder = z.enum(LISTING_ORDERS);
export type ListingOrder = z.infer<typeof ListingOrder>;

export const LISTING_COLOR_NAMES = [
  "red",
  "orange",
  "yellow",
  "green",
  "blue",
  "purple",
  "pink",
  "brown",
  "black",
  "white",
  "gray",
] as const;

const MAX_VALUES = 100;
const Text = z.string().trim().min(1).max(200);
const Texts = z.array(Text).max(MAX_VALUES);
const DateBound = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);
const Hex = z.string().regex(/^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/, "Expected a hex colour like #1e90ff");
const Percent = z.number().min(0).max(100);

const IncludesExcludes = <T extends z.ZodType>(item: T) =>
  z
    .object({ includes: z.array(item).max(MAX_VALUES).optional(), excludes: z.array(item).max(MAX_VALUES).optional() })
    .strict();

export const FileTypeFilter = IncludesExcludes(FileType);
export const ApprovalStatusFilter = IncludesExcludes(ApprovalStatus);
export const TextIncludesExcludes = IncludesExcludes(Text);

export const AiTagsFilter = z
  .object({
    includes: Texts.optional(),
    excludes: Texts.optional(),
    ai_only: z.boolean().optional(),
    manual_only: z.boolean().optional(),
    tag_types: Texts.optional(),
    min_confidence: z.number().min(0).max(1).optional(),
  })
  .strict()
  .refine((f) => !(f.ai_only && f.manual_only), {
    message: "ai_only and manual_only exclude each other",
    path: ["manual_only"],
  });
export type AiTagsFilter = z.infer<typeof AiTagsFilter>;

export const ColorsFilter = z
  .object({
    dominant_colors: IncludesExcludes(Hex).optional(),
    simplified_colors: z
      .object({ includes: z.array(z.enum(LISTING_COLOR_NAMES)).max(20).optional() })
      .strict()
      .optional(),
    color_search: Hex.optional(),
  })
  .strict();
export type ColorsFilter = z.infer<typeof ColorsFilter>;

/**
 * Per field (all conditions of one entry apply together): `any_of` option ids (single select: the
 * value is one of them; multi select: it holds at least one), `all_of` (multi select: holds every one),
 * `none_of` (no value holds any of them; assets without a value match), `text_contains` (case
 * insensitive), `date_from`/`date_to` (inclusive), `is_empty` (true: no value or an empty one; false:
 * a value). Entries for different fields combine with AND. `includes`/`excludes` (the words of the
 * top-level filters) are accepted as `any_of`/`none_of`.
 */
export const CustomFieldsFilter = z
  .array(
    z
      .object({
        field_id: Id,
        any_of: z.array(Id).max(MAX_VALUES).optional(),
        all_of: z.array(Id).max(MAX_VALUES).optional(),
        none_of: z.array(Id).max(MAX_VALUES).optional(),
        text_contains: z.string().trim().min(1).max(200).optional(),
        date_from: z.iso.date().optional(),
        date_to: z.iso.date().optional(),
        is_empty: z.boolean().optional(),
        /** Spec 01's vocabulary for the top-level filters, accepted here too: `includes` is `any_of`. */
        includes: z.array(Id).max(MAX_VALUES).optional(),
        /** … and `excludes` is `none_of`. */
        excludes: z.array(Id).max(MAX_VALUES).optional(),
      })
      .strict(),
  )
  .max(50);

export const ImageQualityFilter = z
  .object({
    contrast_min: Percent.optional(),
    contrast_max: Percent.optional(),
    sharpness_min: Percent.optional(),
    sharpness_max: Percent.optional(),
    brightness_min: Percent.optional(),
    brightness_max: Percent.optional(),
  })
  .strict();
export type ImageQualityFilter = z.infer<typeof ImageQualityFilter>;

export const ExifFilter = z
  .object({
    exif_search: Text.optional(),
    location: z
      .object({
        latitude_min: z.number().min(-90).max(90).optional(),
        latitude_max: z.number().min(-90).max(90).optional(),
        longitude_min: z.number().min(-180).max(180).optional(),
        longitude_max: z.number().min(-180).max(180).optional(),
        altitude_min: z.number().optional(),
        altitude_max: z.number().optional(),
        has_gps: z.boolean().optional(),
      })
      .strict()
      .optional(),
    camera: z
      .object({ camera_makes: Texts.optional(), camera_models: Texts.optional(), camera_search: Text.optional() })
      .strict()
      .optional(),
    technical: z
      .object({
        iso_min: z.number().min(0).optional(),
        iso_max: z.number().min(0).optional(),
        aperture_values: z.array(z.number().positive()).max(MAX_VALUES).optional(),
        exposure_times: z.array(z.number().positive()).max(MAX_VALUES).optional(),
        focal_lengths: z.array(z.number().positive()).max(MAX_VALUES).optional(),
        date_taken_from: DateBound.optional(),
        date_taken_to: DateBound.optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type ExifFilter = z.infer<typeof ExifFilter>;

export const OrGroup = z
  .object({
    file_type: FileTypeFilter.optional(),
    tags: z
      .object({ any_of: Texts.optional(), all_of: Texts.optional(), none_of: Texts.optional() })
      .strict()
      .optional(),
    ai_tags: AiTagsFilter.optional(),
    favorite: z.boolean().optional(),
    search: Text.optional(),
    date_uploaded_from: DateBound.optional(),
    date_uploaded_to: DateBound.optional(),
    date_taken_from: DateBound.optional(),
    date_taken_to: DateBound.optional(),
    custom_fields: CustomFieldsFilter.optional(),
    colors: ColorsFilter.optional(),
  })
  .strict()
  .refine((g) => Object.values(g).some((v) => v !== undefined), { message: "An or_group needs at least one key" });
export type OrGroup = z.infer<typeof OrGroup>;

export const AssetListBody = z
  .object({
    search: Text.optional(),
    file_type: FileTypeFilter.optional(),
    file_extension: TextIncludesExcludes.optional(),
    favorite: z.boolean().optional(),
    has_open_comments: z.boolean().optional(),
    has_versions: z.boolean().optional(),
    approval_status: ApprovalStatusFilter.optional(),
    date_uploaded_from: DateBound.optional(),
    date_uploaded_to: DateBound.optional(),
    custom_fields: CustomFieldsFilter.optional(),
    tags: TextIncludesExcludes.optional(),
    ai_tags: AiTagsFilter.optional(),
    or_groups: z.array(OrGroup).max(20).optional(),
    colors: ColorsFilter.optional(),
    image_quality: ImageQualityFilter.optional(),
    exif: ExifFilter.optional(),
    similar_to: SimilarTo.optional(),
    people: PeopleFilter.optional(),
    /** Usage rights (issue 33, rights.ts): expiring within N days / expired, no release, licence. */
    rights_expire: RightsExpireFilter.optional(),
    no_release: z.boolean().optional(),
    rights_license: RightsLicenseFilter.optional(),
    page: z.number().int().min(1).max(1_000_000).default(1),
    /** The `pagination.next_cursor` of the page before: this page starts right after it (see above). */
    cursor: z.string().min(1).max(LISTING_CURSOR_MAX_LENGTH).optional(),
    page_size: z.number().int().min(1).max(LISTING_PAGE_SIZE_MAX).default(LISTING_PAGE_SIZE_DEFAULT),
    order_by: ListingOrder.default("-date_uploaded"),
    board_id: Id.nullish(),
  })
  .strict();
export type AssetListBody = z.infer<typeof AssetListBody>;
export type AssetListInput = z.input<typeof AssetListBody>;

export const Pagination = z.object({
  page: z.number().int(),
  page_size: z.number().int(),
  total_count: z.number().int(),
  total_pages: z.number().int(),
  has_more: z.boolean(),
  /** True when total_count is the planner's estimate (more than EXACT_COUNT_LIMIT matches). */
  count_is_estimate: z.boolean(),
});
export type Pagination = z.infer<typeof Pagination>;

/** The asset listing's pagination: a cursor besides the page numbers (issue 36). */
export const ListingPagination = Pagination.extend({
  /** Where the next page starts (send it back as `cursor`); null on the last page. */
  next_cursor: z.string().nullable(),
});
export type ListingPagination = z.infer<typeof ListingPagination>;

export const AssetListAnswer = z.object({ data: z.array(Asset), pagination: ListingPagination });
export type AssetListAnswer = z.infer<typeof AssetListAnswer>;
