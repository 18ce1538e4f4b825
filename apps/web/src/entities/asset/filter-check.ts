import {
  APPROVAL_STATUSES,
  FILE_TYPES,
  LISTING_COLOR_NAMES,
  RIGHTS_LICENSES,
  SIMILAR_DISTANCE_DEFAULT,
  SIMILAR_DISTANCE_MAX,
} from "@hangar/contract";

/**
 * The URL's filter state (`f`) checked by hand against the listing contract's filter payload
 * (packages/contract/src/listing.ts, AssetListBody without search, paging, order and board), so the
 * grid's first load needs no zod. Same verdicts and the same output (texts trimmed) as the schema:
 * filter-check.test.ts runs both over every filter kind and a list of bad values.
 */
type Check = (value: unknown) => { ok: true; value: unknown } | { ok: false };

const FAIL = { ok: false } as const;
const ok = (value: unknown) => ({ ok: true, value }) as const;
const MAX_VALUES = 100;

// zod's own patterns (zod/v4/core/regexes.js), as the contract's z.iso.date/datetime and z.uuid use them.
const DATE =
  "(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))";
const DATE_RE = new RegExp(`^${DATE}$`);
const DATETIME_RE = new RegExp(
  `^${DATE}T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$`,
);
const UUID_RE =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
const HEX_RE = /^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/;

const bool: Check = (v) => (typeof v === "boolean" ? ok(v) : FAIL);
const num =
  (min = Number.NEGATIVE_INFINITY, max = Number.POSITIVE_INFINITY, positive = false): Check =>
  (v) =>
    typeof v === "number" && Number.isFinite(v) && v >= min && v <= max && (!positive || v > 0) ? ok(v) : FAIL;
const str =
  (test: (s: string) => boolean, trim = false): Check =>
  (v) => {
    if (typeof v !== "string") return FAIL;
    const s = trim ? v.trim() : v;
    return test(s) ? ok(s) : FAIL;
  };
const text = str((s) => s.length >= 1 && s.length <= 200, true);
const oneOf = (values: readonly string[]) => str((s) => values.includes(s));
const date = str((s) => DATE_RE.test(s));
const dateBound = str((s) => DATETIME_RE.test(s) || DATE_RE.test(s));
const hex = str((s) => HEX_RE.test(s));
const id = str((s) => UUID_RE.test(s));

const list =
  (item: Check, max = MAX_VALUES): Check =>
  (v) => {
    if (!Array.isArray(v) || v.length > max) return FAIL;
    const out: unknown[] = [];
    for (const x of v) {
      const r = item(x);
      if (!r.ok) return FAIL;
      out.push(r.value);
    }
    return ok(out);
  };

/** A strict object (unknown keys refused) of optional keys but `required`, with a whole-object rule. */
const object =
  (shape: Record<string, Check>, rule?: (o: Record<string, unknown>) => boolean, required: string[] = []): Check =>
  (v) => {
    if (!v || typeof v !== "object" || Array.isArray(v)) return FAIL;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(v)) {
      const check = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (!check) return FAIL;
      if (value === undefined) continue;
      const r = check(value);
      if (!r.ok) return FAIL;
      out[key] = r.value;
    }
    if (required.some((key) => out[key] === undefined)) return FAIL;
    return !rule || rule(out) ? ok(out) : FAIL;
  };

const texts = list(text);
const includesExcludes = (item: Check) => object({ includes: list(item), excludes: list(item) });
const fileType = includesExcludes(oneOf(FILE_TYPES));
const aiTags = object(
  {
    includes: texts,
    excludes: texts,
    ai_only: bool,
    manual_only: bool,
    tag_types: texts,
    min_confidence: num(0, 1),
  },
  (o) => !(o.ai_only && o.manual_only),
);
const colors = object({
  dominant_colors: includesExcludes(hex),
  simplified_colors: object({ includes: list(oneOf(LISTING_COLOR_NAMES), 20) }),
  color_search: hex,
});
// similar_to (issue 32): the asset and a whole number of bits, the contract's default filled in as zod does.
const similarToKeys = object(
  { asset_id: id, max_distance: (v) => (Number.isInteger(v) ? num(0, SIMILAR_DISTANCE_MAX)(v) : FAIL) },
  undefined,
  ["asset_id"],
);
const similarTo: Check = (v) => {
  const r = similarToKeys(v);
  return r.ok ? ok({ max_distance: SIMILAR_DISTANCE_DEFAULT, ...(r.value as object) }) : FAIL;
};
const customFields = list(
  object(
    {
      field_id: id,
      any_of: list(id),
      all_of: list(id),
      none_of: list(id),
      text_contains: text,
      date_from: date,
      date_to: date,
      is_empty: bool,
    },
    undefined,
    ["field_id"],
  ),
  50,
);
const percent = num(0, 100);
const positives = list(num(undefined, undefined, true));
const exif = object({
  exif_search: text,
  location: object({
    latitude_min: num(-90, 90),
    latitude_max: num(-90, 90),
    longitude_min: num(-180, 180),
    longitude_max: num(-180, 180),
    altitude_min: num(),
    altitude_max: num(),
    has_gps: bool,
  }),
  camera: object({ camera_makes: texts, camera_models: texts, camera_search: text }),
  technical: object({
    iso_min: num(0),
    iso_max: num(0),
    aperture_values: positives,
    exposure_times: positives,
    focal_lengths: positives,
    date_taken_from: dateBound,
    date_taken_to: dateBound,
  }),
});
const orGroup = object(
  {
    file_type: fileType,
    tags: object({ any_of: texts, all_of: texts, none_of: texts }),
    ai_tags: aiTags,
    favorite: bool,
    search: text,
    date_uploaded_from: dateBound,
    date_uploaded_to: dateBound,
    date_taken_from: dateBound,
    date_taken_to: dateBound,
    custom_fields: customFields,
    colors,
  },
  (g) => Object.keys(g).length > 0,
);

const filters = object({
  file_type: fileType,
  file_extension: includesExcludes(text),
  favorite: bool,
  has_open_comments: bool,
  has_versions: bool,
  approval_status: includesExcludes(oneOf(APPROVAL_STATUSES)),
  date_uploaded_from: dateBound,
  date_uploaded_to: dateBound,
  custom_fields: customFields,
  tags: includesExcludes(text),
  ai_tags: aiTags,
  or_groups: list(orGroup, 20),
  colors,
  image_quality: object({
    contrast_min: percent,
    contrast_max: percent,
    sharpness_min: percent,
    sharpness_max: percent,
    brightness_min: percent,
    brightness_max: percent,
  }),
  exif,
  similar_to: similarTo,
  people: includesExcludes(id),
  rights_expire: object({ within_days: (v) => (Number.isInteger(v) ? num(1, 3650)(v) : FAIL), expired: bool }),
  no_release: bool,
  rights_license: object({ includes: list(oneOf(RIGHTS_LICENSES), 10) }, undefined, ["includes"]),
});

/** The filter keys of a listing body, texts trimmed, or null when `value` is not a valid one. */
export function checkFilters(value: unknown): Record<string, unknown> | null {
  const r = filters(value);
  return r.ok ? (r.value as Record<string, unknown>) : null;
}
