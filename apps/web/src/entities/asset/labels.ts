import { FILE_TYPES, type FileType, type LISTING_COLOR_NAMES, type ListingOrder } from "@hangar/contract";

/** Names shown for the contract's values (filter builder, chips, sort control). */
export const FILE_TYPE_LABELS: Record<FileType, string> = {
  IMAGE: "Image",
  VIDEO: "Video",
  DOCUMENT: "Document",
  AUDIO: "Audio",
  ARCHIVE: "Archive",
  OTHER: "Other",
};

export const FILE_TYPE_OPTIONS = FILE_TYPES.map((value) => ({ value, label: FILE_TYPE_LABELS[value] }));

export type ColorName = (typeof LISTING_COLOR_NAMES)[number];

/** A representative swatch per simplified colour name. */
export const COLOR_SWATCHES: Record<ColorName, string> = {
  red: "#e03131",
  orange: "#f76707",
  yellow: "#fcc419",
  green: "#37b24d",
  blue: "#1c7ed6",
  purple: "#7048e8",
  pink: "#e64980",
  brown: "#8d5a3b",
  black: "#212529",
  white: "#ffffff",
  gray: "#868e96",
};

export const ORDER_OPTIONS: Array<{ value: ListingOrder; label: string }> = [
  { value: "-date_uploaded", label: "Newest uploaded" },
  { value: "date_uploaded", label: "Oldest uploaded" },
  { value: "name", label: "Name A–Z" },
  { value: "-name", label: "Name Z–A" },
  { value: "-size", label: "Largest first" },
  { value: "size", label: "Smallest first" },
  { value: "-date_taken", label: "Newest taken" },
  { value: "date_taken", label: "Oldest taken" },
  { value: "file_type", label: "File type A–Z" },
  { value: "-file_type", label: "File type Z–A" },
];

/** While the grid is filtered by `similar_to`: nearest first, then the other orders. */
export const SIMILAR_ORDER_OPTIONS: Array<{ value: ListingOrder; label: string }> = [
  { value: "distance", label: "Most similar first" },
  ...ORDER_OPTIONS,
];

export const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** 0.008 → "1/125 s", 2 → "2 s". */
export function formatExposure(seconds: number): string {
  if (seconds >= 1) return `${Number(seconds.toFixed(2))} s`;
  return `1/${Math.round(1 / seconds)} s`;
}

/** "1/125", "0.008", "2" or "2s" → seconds; null when it is not a positive number. */
export function parseExposure(text: string): number | null {
  const t = text.trim().replace(/\s*s$/i, "");
  const fraction = /^(\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)$/.exec(t);
  const value = fraction ? Number(fraction[1]) / Number(fraction[2]) : Number(t);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** "f/2.8", "2.8", "50mm", "50 mm" → the number; null when not positive. */
export function parsePositive(text: string): number | null {
  const t = text
    .trim()
    .replace(/^f\s*\//i, "")
    .replace(/\s*mm$/i, "");
  const value = t === "" ? Number.NaN : Number(t);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** "≥ 20", "≤ 80", "20–80"; null when neither bound is set. */
export function formatRange(min: number | undefined, max: number | undefined, unit = ""): string | null {
  if (min === undefined && max === undefined) return null;
  if (min !== undefined && max !== undefined) return `${min}–${max}${unit}`;
  return min !== undefined ? `≥ ${min}${unit}` : `≤ ${max}${unit}`;
}
