import {
  type AiTagsFilter,
  type AssetListBody,
  type ColorsFilter,
  type ExifFilter,
  type ImageQualityFilter,
  LISTING_COLOR_DELTA_E,
  LISTING_DOMINANT_MIN_SHARE,
  type ListingOrder,
  type OrGroup,
} from "@hangar/contract";
import { type RawBuilder, type SqlBool, sql } from "kysely";
import { hexToLab } from "../../media/colors.ts";
import type { CommentScope } from "../assets/index.ts";
import { customFieldsConds } from "./custom-fields-repo.ts";
import { favoriteCond, flagConds, peopleConds, similarCond } from "./flags-repo.ts";
import { rightsConds } from "./rights-repo.ts";

/**
 * The filter payload (contract listing.ts) as one SQL condition over `assets a`. Pure: no database,
 * so the repo, the bench and the tests compile the very same statement. Every value is a bound
 * parameter; only column names and operators chosen here are raw.
 */
type Cond = RawBuilder<SqlBool>;
const TRUE: Cond = sql<SqlBool>`true`;

export interface ListingScope {
  workspaceId: string;
  /** The caller: `favorite` is theirs. */
  userId: string;
  /** A share link's visitor: the comments counted (the link's board's threads, its version's). */
  comments?: CommentScope;
  seek?: RawBuilder<SqlBool>; // a cursor page's keyset (seek-repo.ts): finds the page, never counts
  now?: Date; // what rights filters compare with (the runtime's clock; else the system's)
  rightsLiveOnly?: boolean; // a public link's visitor: expired usage rights are not theirs (issue 33)
  also?: AssetListBody; // a smart board's listing (issue 33): the caller's own conditions, ANDed
}

const and = (cs: Cond[]): Cond =>
  cs.length === 0 ? TRUE : cs.length === 1 ? cs[0]! : sql<SqlBool>`(${sql.join(cs, sql` AND `)})`;
const or = (cs: Cond[]): Cond => (cs.length === 1 ? cs[0]! : sql<SqlBool>`(${sql.join(cs, sql` OR `)})`);
const lowered = (xs: string[]) => [...new Set(xs.map((x) => x.trim().toLowerCase()))];
const has = <T>(xs: T[] | undefined): xs is T[] => xs !== undefined && xs.length > 0;
/**
 * A user's text as a LIKE substring of normalised text: normalised first, then LIKE's own wildcards
 * escaped. Escaping before hangar_norm let unaccent make new ones (fullwidth ％ ＿ ＼ become % _ \), so
 * a search could carry a pattern of its own.
 */
const likeTerm = (t: string) => sql`replace(replace(replace(hangar_norm(${t}), '\\', '\\\\'), '%', '\\%'), '_', '\\_')`;

/** Listable: not deleted, not temporary. Matches the partial indexes' predicate word for word. */
export const LISTABLE = sql<SqlBool>`a.deleted_at IS NULL AND NOT a.is_temp`;

/** A plain date as `_to` covers its whole day; instants are inclusive as given. */
function dateRange(col: string, from: string | undefined, to: string | undefined): Cond[] {
  const c = sql.ref(col);
  const out: Cond[] = [];
  if (from) out.push(sql<SqlBool>`${c} >= ${from}::timestamptz`);
  if (to) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(to)) out.push(sql<SqlBool>`${c} < (${to}::date + 1)::timestamp AT TIME ZONE 'UTC'`);
    else out.push(sql<SqlBool>`${c} <= ${to}::timestamptz`);
  }
  return out;
}

function includesExcludes(
  expr: RawBuilder<unknown>,
  f: { includes?: string[]; excludes?: string[] } | undefined,
  lower: boolean,
) {
  const out: Cond[] = [];
  const norm = (xs: string[]) => (lower ? lowered(xs) : [...new Set(xs)]);
  if (has(f?.includes)) out.push(sql<SqlBool>`${expr} = ANY(${norm(f.includes)}::text[])`);
  if (has(f?.excludes)) out.push(sql<SqlBool>`${expr} <> ALL(${norm(f.excludes)}::text[])`);
  return out;
}

const extension = (xs: string[]) => xs.map((x) => x.replace(/^\./, ""));

/**
 * The asset has a manual tag named (case-insensitively) one of `names`. On `assets.tag_names` (kept by
 * the search trigger, GIN-indexed): constants the planner has per-tag statistics for (migration 0007).
 */
const manualTag = (names: string[]) => sql<SqlBool>`a.tag_names && ${lowered(names)}::text[]`;
/** Every one of `names`. */
const manualTagsAll = (names: string[]) => sql<SqlBool>`a.tag_names @> ${lowered(names)}::text[]`;

function searchCond(q: string): Cond {
  const words = [...new Set(q.split(/\s+/).filter(Boolean))].slice(0, 10);
  // Each word: a substring of the normalised text (trigram GIN) or an English stem (tsvector GIN).
  return and(
    words.map(
      (w) => sql<SqlBool>`(a.search_text LIKE '%' || ${likeTerm(w)} || '%'
        OR a.search_vector @@ plainto_tsquery('english', hangar_norm(${w})))`,
    ),
  );
}

function aiTagsCond(f: AiTagsFilter): Cond[] {
  const aiQual: Cond[] = [];
  if (has(f.tag_types)) aiQual.push(sql<SqlBool>`g.type = ANY(${lowered(f.tag_types)}::text[])`);
  if (f.min_confidence !== undefined) aiQual.push(sql<SqlBool>`g.confidence >= ${f.min_confidence}`);
  // Labels on `assets.ai_labels` (like tag_names); the qualifiers need the AI tag rows themselves.
  const ai = (names: string[] | null): Cond => {
    const labels = names ? [sql<SqlBool>`a.ai_labels && ${lowered(names)}::text[]`] : [];
    if (aiQual.length === 0) return names ? labels[0]! : sql<SqlBool>`cardinality(a.ai_labels) > 0`;
    return and([
      ...labels,
      sql<SqlBool>`EXISTS (SELECT 1 FROM ai_tags g WHERE g.asset_id = a.id
        ${names ? sql`AND lower(g.label) = ANY(${lowered(names)}::text[])` : sql``} AND ${and(aiQual)})`,
    ]);
  };
  const manualAny = sql<SqlBool>`cardinality(a.tag_names) > 0`;
  const match = (names: string[]) =>
    f.ai_only ? ai(names) : f.manual_only ? manualTag(names) : or([ai(names), manualTag(names)]);
  const out: Cond[] = [];
  if (has(f.includes)) out.push(match(f.includes));
  else if (f.manual_only) out.push(manualAny);
  else if (f.ai_only || has(f.tag_types) || f.min_confidence !== undefined) out.push(ai(null));
  if (has(f.excludes)) out.push(sql<SqlBool>`NOT ${match(f.excludes)}`);
  return out;
}

/** A dominant colour (share ≥ 5%) within ΔE (CIE76) of `hex`; the ±ΔE box lets the L*a*b* index help. */
function nearColor(hex: string): Cond {
  const { l, a, b } = hexToLab(hex);
  const d = LISTING_COLOR_DELTA_E;
  return sql<SqlBool>`EXISTS (SELECT 1 FROM asset_colors c WHERE c.asset_id = a.id
    AND c.share >= ${sql.lit(LISTING_DOMINANT_MIN_SHARE)}
    AND c.l BETWEEN ${l - d} AND ${l + d} AND c.a BETWEEN ${a - d} AND ${a + d} AND c.b BETWEEN ${b - d} AND ${b + d}
    AND (c.l - ${l}) ^ 2 + (c.a - ${a}) ^ 2 + (c.b - ${b}) ^ 2 <= ${d * d})`;
}

function colorsCond(f: ColorsFilter): Cond[] {
  const out: Cond[] = [];
  if (has(f.dominant_colors?.includes)) out.push(or(f.dominant_colors.includes.map(nearColor)));
  if (has(f.dominant_colors?.excludes)) out.push(sql<SqlBool>`NOT ${or(f.dominant_colors.excludes.map(nearColor))}`);
  if (has(f.simplified_colors?.includes))
    out.push(sql<SqlBool>`a.simplified_colors && ${[...new Set(f.simplified_colors.includes)]}::text[]`);
  if (f.color_search) out.push(nearColor(f.color_search));
  return out;
}

function range(col: string, min: number | undefined, max: number | undefined): Cond[] {
  const out: Cond[] = [];
  if (min !== undefined) out.push(sql<SqlBool>`${sql.ref(col)} >= ${min}`);
  if (max !== undefined) out.push(sql<SqlBool>`${sql.ref(col)} <= ${max}`);
  return out;
}

function qualityCond(f: ImageQualityFilter): Cond[] {
  return [
    ...range("a.quality_contrast", f.contrast_min, f.contrast_max),
    ...range("a.quality_sharpness", f.sharpness_min, f.sharpness_max),
    ...range("a.quality_brightness", f.brightness_min, f.brightness_max),
  ];
}

/** Float EXIF values compare with a small tolerance (1/3 EV steps are stored rounded). */
const nearAny = (col: string, xs: number[]) =>
  sql<SqlBool>`EXISTS (SELECT 1 FROM unnest(${xs}::float8[]) v WHERE abs(${sql.ref(col)} - v) <= v * 0.005 + 1e-9)`;

/**
 * A substring of these columns (in this order, normalised). search_text holds the same columns in the
 * same order (migration 0005), so it contains every such substring: its trigram index finds the
 * candidates, the exact condition decides.
 */
const textSearch = (cols: string[], q: string) =>
  sql<SqlBool>`(a.search_text LIKE '%' || ${likeTerm(q)} || '%'
    AND hangar_norm(concat_ws(' ', ${sql.join(cols.map((c) => sql.ref(c)))})) LIKE '%' || ${likeTerm(q)} || '%')`;

function exifCond(f: ExifFilter): Cond[] {
  const out: Cond[] = [];
  if (f.exif_search) out.push(textSearch(["a.camera_make", "a.camera_model", "a.lens"], f.exif_search));
  const loc = f.location;
  if (loc) {
    out.push(...range("a.gps_latitude", loc.latitude_min, loc.latitude_max));
    out.push(...range("a.gps_longitude", loc.longitude_min, loc.longitude_max));
    out.push(...range("a.gps_altitude", loc.altitude_min, loc.altitude_max));
    if (loc.has_gps === true) out.push(sql<SqlBool>`(a.gps_latitude IS NOT NULL AND a.gps_longitude IS NOT NULL)`);
    if (loc.has_gps === false) out.push(sql<SqlBool>`(a.gps_latitude IS NULL OR a.gps_longitude IS NULL)`);
  }
  const cam = f.camera;
  if (cam) {
    if (has(cam.camera_makes)) out.push(sql<SqlBool>`lower(a.camera_make) = ANY(${lowered(cam.camera_makes)}::text[])`);
    if (has(cam.camera_models))
      out.push(sql<SqlBool>`lower(a.camera_model) = ANY(${lowered(cam.camera_models)}::text[])`);
    if (cam.camera_search) out.push(textSearch(["a.camera_make", "a.camera_model"], cam.camera_search));
  }
  const tech = f.technical;
  if (tech) {
    out.push(...range("a.iso", tech.iso_min, tech.iso_max));
    if (has(tech.aperture_values)) out.push(nearAny("a.aperture", tech.aperture_values));
    if (has(tech.exposure_times)) out.push(nearAny("a.exposure_time", tech.exposure_times));
    if (has(tech.focal_lengths)) out.push(nearAny("a.focal_length", tech.focal_lengths));
    out.push(...dateRange("a.date_taken", tech.date_taken_from, tech.date_taken_to));
  }
  return out;
}

function groupCond(g: OrGroup, scope: ListingScope): Cond {
  const out: Cond[] = [];
  out.push(...includesExcludes(sql`a.file_type`, g.file_type, false));
  if (g.tags) {
    if (has(g.tags.any_of)) out.push(manualTag(g.tags.any_of));
    if (has(g.tags.all_of)) out.push(manualTagsAll(g.tags.all_of));
    if (has(g.tags.none_of)) out.push(sql<SqlBool>`NOT ${manualTag(g.tags.none_of)}`);
  }
  if (g.ai_tags) out.push(...aiTagsCond(g.ai_tags));
  if (g.favorite !== undefined) out.push(favoriteCond(scope, g.favorite));
  if (g.search) out.push(searchCond(g.search));
  out.push(...dateRange("a.date_uploaded", g.date_uploaded_from, g.date_uploaded_to));
  out.push(...dateRange("a.date_taken", g.date_taken_from, g.date_taken_to));
  if (g.colors) out.push(...colorsCond(g.colors));
  out.push(...customFieldsConds(g.custom_fields));
  return and(out);
}

/** Every condition of the payload, ANDed; or_groups ORed among themselves. Board and scope included. */
export function listingWhere(f: AssetListBody, scope: ListingScope): Cond {
  const ws = sql<SqlBool>`a.workspace_id = ${scope.workspaceId}`;
  return and([ws, LISTABLE, ...seekOf(scope), ...listingFilters(f, scope)]);
}

/** The payload's conditions (board, scope.also), not workspace/listable. None: unfiltered (asset_list_days). */
export function listingFilters(f: AssetListBody, scope: ListingScope): Cond[] {
  const out: Cond[] = [];
  out.push(...rightsConds(f, scope.workspaceId, scope.now ?? new Date(), scope.rightsLiveOnly));
  if (f.board_id)
    out.push(
      sql<SqlBool>`EXISTS (SELECT 1 FROM board_assets ba WHERE ba.board_id = ${f.board_id} AND ba.asset_id = a.id)`,
    );
  if (f.search) out.push(searchCond(f.search));
  out.push(...includesExcludes(sql`a.file_type`, f.file_type, false));
  if (f.file_extension)
    out.push(
      ...includesExcludes(
        sql`lower(a.file_extension)`,
        {
          includes: f.file_extension.includes && extension(f.file_extension.includes),
          excludes: f.file_extension.excludes && extension(f.file_extension.excludes),
        },
        true,
      ),
    );
  if (f.favorite !== undefined) out.push(favoriteCond(scope, f.favorite));
  out.push(...flagConds(f));
  if (f.similar_to) out.push(similarCond(f.similar_to, scope.workspaceId));
  if (f.people) out.push(...peopleConds(f.people, scope.workspaceId));
  out.push(...dateRange("a.date_uploaded", f.date_uploaded_from, f.date_uploaded_to));
  if (f.tags) {
    if (has(f.tags.includes)) out.push(manualTag(f.tags.includes));
    if (has(f.tags.excludes)) out.push(sql<SqlBool>`NOT ${manualTag(f.tags.excludes)}`);
  }
  if (f.ai_tags) out.push(...aiTagsCond(f.ai_tags));
  out.push(...customFieldsConds(f.custom_fields));
  if (has(f.or_groups)) out.push(or(f.or_groups.map((g) => groupCond(g, scope))));
  if (f.colors) out.push(...colorsCond(f.colors));
  if (f.image_quality) out.push(...qualityCond(f.image_quality));
  if (f.exif) out.push(...exifCond(f.exif));
  if (scope.also) out.push(...listingFilters(scope.also, { ...scope, also: undefined }));
  return out;
}

/**
 * The facets the payload requires at the top level, each an "any of" list of prefixed elements of
 * `hangar_listing_facets(...)` (migration 20261127-1001): manual tags `t:`, AI labels `l:`, colour
 * names `c:`, file types `f:`. Each is implied by the payload's own condition (tags.includes, an
 * ai_tags include in any of its modes, simplified_colors, file_type.includes), so ANDing them changes
 * no result. Two or more: one GIN scan intersects them (a tag and a type that never meet cost no heap
 * fetch); fewer: nothing (each facet alone has its own index and statistics). Only the probe and the
 * count add it: the planner's estimate, which chooses the plan, stays that of the payload alone.
 */
export function facetsCond(f: AssetListBody): Cond | null {
  const lists: string[][] = [];
  const pre = (p: string, xs: string[]) => xs.map((x) => p + x);
  if (has(f.file_type?.includes)) lists.push(pre("f:", [...new Set(f.file_type.includes)]));
  if (has(f.tags?.includes)) lists.push(pre("t:", lowered(f.tags.includes)));
  if (has(f.colors?.simplified_colors?.includes))
    lists.push(pre("c:", [...new Set(f.colors.simplified_colors.includes)]));
  const ai = f.ai_tags;
  if (ai && has(ai.includes)) {
    const names = lowered(ai.includes);
    lists.push(
      ai.ai_only ? pre("l:", names) : ai.manual_only ? pre("t:", names) : [...pre("l:", names), ...pre("t:", names)],
    );
  }
  if (lists.length < 2) return null;
  const facets = sql`hangar_listing_facets(a.tag_names, a.ai_labels, a.simplified_colors, a.file_type)`;
  return and(lists.map((xs) => sql<SqlBool>`${facets} && ${xs}::text[]`));
}

/** listingWhere with facetsCond: for statements that find every match (the probe, the count). */
export function matchWhere(f: AssetListBody, scope: ListingScope, withFacets = true): Cond {
  const facets = withFacets ? facetsCond(f) : null;
  return facets ? and([listingWhere(f, scope), facets]) : listingWhere(f, scope);
}

/**
 * matchWhere as disjoint conditions whose union is its matches, for the statements that find every
 * match: one, except for AI tag includes with qualifiers matching AI or manual tags alike. There
 * `(labels && X AND EXISTS (qualified AI tag)) OR tag_names && X` keeps the qualified AI tags' index
 * out of reach (an EXISTS inside an OR is no join), so "label3 with confidence ≥ 0.99" fetched the
 * 50,000 assets labelled label3 to check each (100–270 ms) when the AI tag index finds none at once.
 * Split: the AI arm (ai_only: a semi-join through ai_tags), then the manual arm without what the AI arm
 * has (manual_only AND NOT the AI condition): UNION ALL of the two is exact and streams.
 */
export function matchArms(f: AssetListBody, scope: ListingScope, withFacets = true): Cond[] {
  const ai = f.ai_tags;
  const qualified = ai && (has(ai.tag_types) || ai.min_confidence !== undefined);
  if (!ai || !qualified || !has(ai.includes) || ai.ai_only || ai.manual_only || has(ai.excludes))
    return [matchWhere(f, scope, withFacets)];
  const aiArm = { ...f, ai_tags: { ...ai, ai_only: true } };
  const manualArm = { ...f, ai_tags: { includes: ai.includes, manual_only: true } };
  const aiCond = and(
    aiTagsCond({ includes: ai.includes, tag_types: ai.tag_types, min_confidence: ai.min_confidence, ai_only: true }),
  );
  return [
    matchWhere(aiArm, scope, withFacets),
    and([matchWhere(manualArm, scope, withFacets), sql<SqlBool>`NOT ${aiCond}`]),
  ];
}

export const seekOf = (scope: ListingScope): Cond[] => (scope.seek ? [scope.seek] : []);

/** The payload's upload-date range alone (part of listingFilters too): an index condition for walks. */
export const uploadRange = (f: AssetListBody): Cond[] =>
  dateRange("a.date_uploaded", f.date_uploaded_from, f.date_uploaded_to);

/** The sort key of each order_by (before the id tie-breaker), as an expression over `assets a`. */
export function orderKey(order: ListingOrder): RawBuilder<unknown> {
  switch (order.replace(/^-/, "")) {
    case "name":
      return sql`a.name_sort`; // lower(name), stored (migration 0008)
    case "size":
      return sql`a.size`;
    case "date_taken":
      return sql`a.date_taken`;
    case "file_type":
      return sql`a.file_type`;
    default:
      return sql`a.date_uploaded`;
  }
}

/**
 * ORDER BY `key`, then `id`, both in the order's direction; date_taken puts assets without one last
 * either way. Matches an assets_list_* index when key and id are those of `assets a`.
 */
export function orderBy(order: ListingOrder, key: RawBuilder<unknown>, id: RawBuilder<unknown>): RawBuilder<unknown> {
  const dir = sql.raw(order.startsWith("-") ? "DESC" : "ASC");
  const nulls = sql.raw(order.endsWith("date_taken") ? " NULLS LAST" : "");
  return sql`${key} ${dir}${nulls}, ${id} ${dir}`;
}

/**
 * Whether the payload has a condition the planner estimates only roughly: text search (a word it has
 * no statistics for is guessed at ~0.5% of rows), camera/EXIF substring search, AI tag qualifiers
 * (a correlated subquery), and a custom field's value conditions (the semi-join into field_values is
 * estimated from every field's values together, and "option is one of, or a multi value contains one
 * of" adds both guesses: 100 assets with an option were estimated at 3,062 on the bench's million, so
 * the page walked 110,000 assets in order). Tag names, types, extensions, dates, favourites and ranges
 * have statistics.
 */
export function roughEstimate(f: AssetListBody, withFields = true): boolean {
  const ai = (t: AiTagsFilter | undefined) => !!t && (has(t.tag_types) || t.min_confidence !== undefined);
  const fields = (cf: AssetListBody["custom_fields"]) =>
    withFields &&
    (cf ?? []).some(
      (e) =>
        has(e.any_of) ||
        has(e.includes) ||
        has(e.all_of) ||
        !!e.text_contains ||
        !!e.date_from ||
        !!e.date_to ||
        e.is_empty === false,
    );
  return (
    !!f.search ||
    !!f.exif?.exif_search ||
    !!f.exif?.camera?.camera_search ||
    ai(f.ai_tags) ||
    fields(f.custom_fields) ||
    (f.or_groups ?? []).some((g) => !!g.search || ai(g.ai_tags) || fields(g.custom_fields))
  );
}

/**
 * Whether a rough estimate may be far too small at a cost: text and AI qualifiers, whose probe reads
 * every candidate of its index (a trigram bitmap of 300,000 assets for "model 1"), not custom-field
 * values alone, whose probe is driven from that field's values (at most as many as it has).
 */
export const roughAndUnbounded = (f: AssetListBody) => roughEstimate(f, false);

/** ORDER BY for each order_by, matching an assets_list_* index; id breaks ties in the same direction. */
export function listingOrder(order: ListingOrder): RawBuilder<unknown> {
  return orderBy(order, orderKey(order), sql`a.id`);
}
