import {
  type ApprovalStatus,
  type AssetListBody,
  type CustomField,
  type FileType,
  LICENSE_LABELS,
  type OrGroup,
  type RightsLicense,
  STATUS_LABELS,
} from "@hangar/contract";

type FieldCondition = NonNullable<AssetListBody["custom_fields"]>[number];

import {
  type AssetFilters,
  COLOR_SWATCHES,
  type ColorName,
  FILE_TYPE_LABELS,
  formatExposure,
  formatRange,
  getIn,
  pruneFilters,
  setIn,
} from "../../../entities/asset";

type Path = readonly (string | number)[];

/**
 * One removable chip per active condition. Removing a chip takes out one value of a list (`value`), or
 * every key in `paths`.
 */
export interface FilterChip {
  id: string;
  label: string;
  /** A colour to show beside the label. */
  swatch?: string;
  paths: Path[];
  value?: string | number;
  /** A custom-field condition: removing the chip takes out that field's entry of the list at `paths`. */
  fieldId?: string;
}

const hex = (h: string) => (h.startsWith("#") ? h : `#${h}`).toLowerCase();
const ext = (e: string) => (e.startsWith(".") ? e : `.${e}`);

type Builder = (chip: Omit<FilterChip, "id">) => void;

function listChips(
  add: Builder,
  filters: unknown,
  path: Path,
  label: (v: string) => string,
  swatch?: (v: string) => string,
) {
  const values = getIn(filters, path);
  if (!Array.isArray(values)) return;
  for (const v of values as Array<string | number>) {
    add({ label: label(String(v)), paths: [path], value: v, swatch: swatch?.(String(v)) });
  }
}

function valueChip(add: Builder, filters: unknown, path: Path, label: (v: never) => string | null) {
  const v = getIn(filters, path);
  if (v === undefined) return;
  const text = label(v as never);
  if (text) add({ label: text, paths: [path] });
}

function rangeChip(add: Builder, filters: unknown, base: Path, key: string, name: string, unit = "") {
  const min = getIn(filters, [...base, `${key}_min`]) as number | undefined;
  const max = getIn(filters, [...base, `${key}_max`]) as number | undefined;
  const range = formatRange(min, max, unit);
  if (range)
    add({
      label: `${name} ${range}`,
      paths: [
        [...base, `${key}_min`],
        [...base, `${key}_max`],
      ],
    });
}

const typeLabel = (t: string) => FILE_TYPE_LABELS[t as FileType] ?? t;

/**
 * One custom-field condition as people read it (issue 35): the field's title and the chosen values,
 * "Status: Approved or Draft", "Status: not Draft", "Notes contains “x”", "Due 2026-01-01 – …".
 */
export function customFieldLabel(entry: FieldCondition, fields: readonly CustomField[]): string {
  const field = fields.find((f) => f.id === entry.field_id);
  const title = field?.title ?? "Custom field";
  const labels = (ids: readonly string[] | undefined) =>
    (ids ?? []).map((id) => field?.options.find((o) => o.id === id)?.label ?? "an option");
  const parts: string[] = [];
  const any = labels([...(entry.any_of ?? []), ...(entry.includes ?? [])]);
  if (any.length) parts.push(any.join(" or "));
  const all = labels(entry.all_of);
  if (all.length) parts.push(all.join(" and "));
  const none = labels([...(entry.none_of ?? []), ...(entry.excludes ?? [])]);
  if (none.length) parts.push(`not ${none.join(" or ")}`);
  if (entry.date_from || entry.date_to) parts.push(`${entry.date_from ?? "…"} – ${entry.date_to ?? "…"}`);
  if (entry.is_empty !== undefined) parts.push(entry.is_empty ? "empty" : "not empty");
  const text = entry.text_contains ? ` contains “${entry.text_contains}”` : "";
  return parts.length ? `${title}: ${parts.join(", ")}${text}` : `${title}${text || ": any"}`;
}

/** The conditions an or_group shares with the top level, by the same labels. */
function commonChips(add: Builder, f: unknown, base: Path, fields: readonly CustomField[]) {
  const at = (...p: (string | number)[]) => [...base, ...p];
  listChips(add, f, at("file_type", "includes"), (v) => `Type: ${typeLabel(v)}`);
  listChips(add, f, at("file_type", "excludes"), (v) => `Not ${typeLabel(v)}`);
  valueChip(add, f, at("favorite"), (v: boolean) => (v ? "Favourites" : "Not favourites"));
  valueChip(add, f, at("has_open_comments"), (v: boolean) => (v ? "Has open comments" : "No open comments"));
  valueChip(add, f, at("search"), (v: string) => `Text: “${v}”`);
  valueChip(add, f, at("date_uploaded_from"), (v: string) => `Uploaded from ${v.slice(0, 10)}`);
  valueChip(add, f, at("date_uploaded_to"), (v: string) => `Uploaded until ${v.slice(0, 10)}`);
  valueChip(add, f, at("date_taken_from"), (v: string) => `Taken from ${v.slice(0, 10)}`);
  valueChip(add, f, at("date_taken_to"), (v: string) => `Taken until ${v.slice(0, 10)}`);
  listChips(add, f, at("tags", "includes"), (v) => `Tag: ${v}`);
  listChips(add, f, at("tags", "excludes"), (v) => `Without tag: ${v}`);
  listChips(add, f, at("tags", "any_of"), (v) => `Tag: ${v}`);
  listChips(add, f, at("tags", "all_of"), (v) => `Has tag: ${v}`);
  listChips(add, f, at("tags", "none_of"), (v) => `Without tag: ${v}`);
  listChips(add, f, at("ai_tags", "includes"), (v) => `AI tag: ${v}`);
  listChips(add, f, at("ai_tags", "excludes"), (v) => `Without AI tag: ${v}`);
  valueChip(add, f, at("ai_tags", "ai_only"), (v: boolean) => (v ? "AI tags only" : null));
  valueChip(add, f, at("ai_tags", "manual_only"), (v: boolean) => (v ? "Manual tags only" : null));
  listChips(add, f, at("ai_tags", "tag_types"), (v) => `AI tag type: ${v}`);
  valueChip(add, f, at("ai_tags", "min_confidence"), (v: number) => `AI confidence ≥ ${Math.round(v * 100)}%`);
  listChips(
    add,
    f,
    at("colors", "simplified_colors", "includes"),
    (v) => `Colour: ${v}`,
    (v) => COLOR_SWATCHES[v as ColorName],
  );
  listChips(add, f, at("colors", "dominant_colors", "includes"), (v) => `Colour ${hex(v)}`, hex);
  listChips(add, f, at("colors", "dominant_colors", "excludes"), (v) => `Not colour ${hex(v)}`, hex);
  const near = getIn(f, at("colors", "color_search"));
  if (typeof near === "string")
    add({ label: `Near ${hex(near)}`, swatch: hex(near), paths: [at("colors", "color_search")] });
  const entries = getIn(f, at("custom_fields"));
  if (Array.isArray(entries))
    for (const entry of entries as FieldCondition[])
      add({ label: customFieldLabel(entry, fields), paths: [at("custom_fields")], fieldId: entry.field_id });
}

/**
 * Every active condition of `filters` as a chip, in the filter builder's order; `fields` (the
 * workspace's custom fields) name custom-field conditions by their title and option labels.
 */
export function filterChips(
  input: AssetFilters,
  fields: readonly CustomField[] = [],
  /** People's names by id (issue 32); an unknown id reads "Person". */
  people: ReadonlyMap<string, string> = new Map(),
): FilterChip[] {
  const f = pruneFilters(input);
  const chips: FilterChip[] = [];
  const add: Builder = (chip) =>
    chips.push({ ...chip, id: `${chip.paths.map((p) => p.join(".")).join("+")}=${chip.value ?? chip.fieldId ?? ""}` });

  commonChips(add, f, [], fields);
  // `similar_to` has a banner of its own (similar-banner.tsx), with its distance and its clear button.
  // Top level only: an or_group has no versions condition.
  valueChip(add, f, ["has_versions"], (v: boolean) => (v ? "Has versions" : "One version"));
  listChips(add, f, ["file_extension", "includes"], (v) => `Extension: ${ext(v)}`);
  listChips(add, f, ["file_extension", "excludes"], (v) => `Not ${ext(v)}`);
  listChips(add, f, ["approval_status", "includes"], (v) => `Approval: ${STATUS_LABELS[v as ApprovalStatus] ?? v}`);
  listChips(add, f, ["approval_status", "excludes"], (v) => `Approval not: ${STATUS_LABELS[v as ApprovalStatus] ?? v}`);
  // Usage rights (issue 33).
  valueChip(add, f, ["rights_expire", "within_days"], (v: number) => `Rights expire within ${v} days`);
  valueChip(add, f, ["rights_expire", "expired"], (v: boolean) => (v ? "Rights expired" : "Rights not expired"));
  valueChip(add, f, ["no_release"], (v: boolean) => (v ? "No release" : "Has a release"));
  listChips(add, f, ["rights_license", "includes"], (v) => `Licence: ${LICENSE_LABELS[v as RightsLicense] ?? v}`);
  listChips(add, f, ["people", "includes"], (v) => `Person: ${people.get(v) ?? "Person"}`);
  listChips(add, f, ["people", "excludes"], (v) => `Not: ${people.get(v) ?? "Person"}`);
  for (const key of ["contrast", "sharpness", "brightness"]) {
    rangeChip(add, f, ["image_quality"], key, key.charAt(0).toUpperCase() + key.slice(1));
  }
  valueChip(add, f, ["exif", "exif_search"], (v: string) => `EXIF: “${v}”`);
  valueChip(add, f, ["exif", "location", "has_gps"], (v: boolean) => (v ? "Has GPS" : "No GPS"));
  rangeChip(add, f, ["exif", "location"], "latitude", "Latitude", "°");
  rangeChip(add, f, ["exif", "location"], "longitude", "Longitude", "°");
  rangeChip(add, f, ["exif", "location"], "altitude", "Altitude", " m");
  listChips(add, f, ["exif", "camera", "camera_makes"], (v) => `Make: ${v}`);
  listChips(add, f, ["exif", "camera", "camera_models"], (v) => `Model: ${v}`);
  valueChip(add, f, ["exif", "camera", "camera_search"], (v: string) => `Camera: “${v}”`);
  rangeChip(add, f, ["exif", "technical"], "iso", "ISO");
  listChips(add, f, ["exif", "technical", "aperture_values"], (v) => `f/${v}`);
  listChips(add, f, ["exif", "technical", "exposure_times"], (v) => formatExposure(Number(v)));
  listChips(add, f, ["exif", "technical", "focal_lengths"], (v) => `${v} mm`);
  valueChip(add, f, ["exif", "technical", "date_taken_from"], (v: string) => `Taken from ${v.slice(0, 10)}`);
  valueChip(add, f, ["exif", "technical", "date_taken_to"], (v: string) => `Taken until ${v.slice(0, 10)}`);

  (f.or_groups ?? []).forEach((group: OrGroup, i) => {
    const inner: string[] = [];
    commonChips((c) => inner.push(c.label), group, [], fields);
    chips.push({ id: `or_groups.${i}`, label: `Any of ${i + 1}: ${inner.join(" & ")}`, paths: [["or_groups", i]] });
  });
  return chips;
}

/** `filters` without the chip's condition. */
export function removeChip(filters: AssetFilters, chip: FilterChip): AssetFilters {
  let next = filters;
  for (const path of chip.paths) {
    if (chip.fieldId !== undefined) {
      const list = getIn(next, path);
      const rest = Array.isArray(list)
        ? list.filter((e) => (e as { field_id?: string }).field_id !== chip.fieldId)
        : [];
      next = setIn(next, path, rest.length ? rest : undefined);
    } else if (chip.value !== undefined) {
      const list = getIn(next, path);
      next = setIn(next, path, Array.isArray(list) ? list.filter((v) => v !== chip.value) : undefined);
    } else {
      next = setIn(next, path, undefined);
    }
  }
  return pruneFilters(next);
}
