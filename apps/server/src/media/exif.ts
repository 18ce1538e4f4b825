import { readFile, stat } from "node:fs/promises";
import exifr from "exifr";

/**
 * Camera metadata for the asset's exif columns and the listing's exif filters (spec: exif_search,
 * location, camera, technical). Reads only the TIFF blocks (IFD0, Exif, GPS); maker notes, user
 * comments, XMP, ICC and IPTC are skipped: large, vendor-specific and not used by any filter.
 */

export interface ExifGps {
  latitude: number;
  longitude: number;
  /** Metres above sea level (negative below), or null when not recorded. */
  altitude: number | null;
}

export interface ExifData {
  make: string | null;
  model: string | null;
  lens: string | null;
  iso: number | null;
  /** f-number, e.g. 2.8. */
  aperture: number | null;
  /** Seconds, e.g. 0.004. */
  exposure_time: number | null;
  /** As photographers write it: "1/250", "0.4", "2". */
  exposure_display: string | null;
  /** Millimetres (actual, not 35 mm equivalent). */
  focal_length: number | null;
  /**
   * ISO 8601 in UTC. EXIF times are the camera's wall clock: with OffsetTimeOriginal we convert to UTC;
   * without it we store the wall-clock time as if it were UTC, so it displays as the camera showed it
   * and does not depend on the server's time zone.
   */
  taken_at: string | null;
  gps: ExifGps | null;
  /** Every parsed tag, JSON-safe (no binary, dates as ISO, trimmed strings), capped at RAW_MAX_BYTES. */
  raw: Record<string, unknown>;
}

export const RAW_MAX_BYTES = 16 * 1024;
const RAW_MAX_STRING = 1024;
const RAW_MAX_ARRAY = 64;

const EMPTY: ExifData = {
  make: null,
  model: null,
  lens: null,
  iso: null,
  aperture: null,
  exposure_time: null,
  exposure_display: null,
  focal_length: null,
  taken_at: null,
  gps: null,
  raw: {},
};

const OPTIONS = {
  tiff: true,
  ifd0: {},
  exif: true,
  gps: true,
  ifd1: false, // the embedded thumbnail's IFD
  interop: false,
  makerNote: false,
  userComment: false,
  xmp: false,
  icc: false,
  iptc: false,
  jfif: false,
  ihdr: false,
  // Raw date strings: exifr would turn them into Dates in the server's local time zone.
  reviveValues: false,
  translateValues: true,
  sanitize: true,
  mergeOutput: true,
  silentErrors: true,
};

/** Read EXIF from the original at `path`. Files without EXIF, or not parseable at all, give all nulls. */
export async function readExif(path: string): Promise<ExifData> {
  let tags: Record<string, unknown> | undefined;
  try {
    // exifr leaks its file handle when the first read fails, as it does on empty/tiny files.
    if ((await stat(path)).size < 16) return { ...EMPTY, raw: {} };
    tags = await exifr.parse(await exifrInput(path), OPTIONS);
  } catch {
    // exifr throws "Unknown file format" for anything it has no parser for (PDF, video, text…).
    return { ...EMPTY, raw: {} };
  }
  if (!tags || typeof tags !== "object") return { ...EMPTY, raw: {} };

  const exposure = positive(tags.ExposureTime);
  return {
    make: text(tags.Make),
    model: text(tags.Model),
    lens: text(tags.LensModel) ?? text(tags.Lens) ?? text(tags.LensInfo),
    iso: integer(Array.isArray(tags.ISO) ? tags.ISO[0] : tags.ISO),
    aperture: round(positive(tags.FNumber) ?? apexToFNumber(tags.ApertureValue), 1),
    exposure_time: exposure,
    exposure_display: exposure === null ? null : formatExposure(exposure),
    focal_length: round(positive(tags.FocalLength), 2),
    taken_at: takenAt(tags),
    gps: gpsOf(tags),
    raw: jsonSafe(tags),
  };
}

/**
 * exifr treats a string containing "://" as a URL to fetch and a long one as base64; server-side paths
 * never look like that, but if one did we hand exifr the bytes instead of letting it go to the network.
 */
async function exifrInput(path: string): Promise<string | Buffer> {
  if (!path.includes("://") && !path.startsWith("data:") && path.length < 4096) return path;
  if ((await stat(path)).size > 64 * 1024 * 1024) throw new Error("too large to read whole");
  return readFile(path);
}

/** "1/250" below a third of a second (or whenever 1/x is whole), else seconds with one decimal. */
export function formatExposure(seconds: number): string {
  if (seconds < 1) {
    const denominator = 1 / seconds;
    const whole = Math.round(denominator);
    if (seconds < 0.3 || Math.abs(denominator - whole) < 0.01 * denominator) return `1/${whole}`;
  }
  return String(Math.round(seconds * 10) / 10);
}

function takenAt(tags: Record<string, unknown>): string | null {
  const candidates: [unknown, unknown][] = [
    [tags.DateTimeOriginal, tags.OffsetTimeOriginal],
    [tags.CreateDate ?? tags.DateTimeDigitized, tags.OffsetTimeDigitized],
    [tags.ModifyDate ?? tags.DateTime, tags.OffsetTime],
  ];
  for (const [value, offset] of candidates) {
    const iso = exifDateToIso(value, offset);
    if (iso) return iso;
  }
  return null;
}

/** "2024:05:01 12:30:00" (+ optional "+02:00") → "2024-05-01T10:30:00.000Z"; null for blanks like "0000:00:00". */
export function exifDateToIso(value: unknown, offset?: unknown): string | null {
  if (typeof value !== "string") return null;
  const m = /^(\d{4})[:-](\d{2})[:-](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map((p) => (p === undefined ? undefined : Number(p)));
  if (!y || !mo || !d || mo > 12 || d > 31 || h > 23 || mi > 59 || s > 60) return null;
  let ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const off = typeof offset === "string" ? /^([+-])(\d{2}):?(\d{2})$/.exec(offset.trim()) : null;
  if (off) ms -= (off[1] === "-" ? -1 : 1) * (Number(off[2]) * 60 + Number(off[3])) * 60_000;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function gpsOf(tags: Record<string, unknown>): ExifGps | null {
  const latitude = finite(tags.latitude);
  const longitude = finite(tags.longitude);
  if (latitude === null || longitude === null) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  // 0,0 is what many devices write when they had no fix; it is in the sea off Africa.
  if (latitude === 0 && longitude === 0) return null;
  let altitude = finite(tags.GPSAltitude);
  const ref = tags.GPSAltitudeRef;
  const below =
    ref === 1 || (ref instanceof Uint8Array && ref[0] === 1) || (typeof ref === "string" && /below/i.test(ref));
  if (altitude !== null && below) altitude = -altitude;
  return { latitude: round(latitude, 7)!, longitude: round(longitude, 7)!, altitude: round(altitude, 2) };
}

/** ApertureValue is APEX: f-number = 2^(Av/2). */
function apexToFNumber(value: unknown): number | null {
  const av = finite(value);
  return av === null ? null : 2 ** (av / 2);
}

function text(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const cleaned = value.replace(/\0/g, "").trim();
  return cleaned === "" ? null : cleaned.slice(0, 255);
}

function finite(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function positive(value: unknown): number | null {
  const n = finite(value);
  return n !== null && n > 0 ? n : null;
}

function integer(value: unknown): number | null {
  const n = positive(value);
  return n === null ? null : Math.round(n);
}

function round(value: number | null, digits: number): number | null {
  if (value === null) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * Tags as plain JSON for the metadata column: binary (Buffers, typed arrays) dropped, EXIF dates as
 * ISO, strings trimmed and cut, long arrays dropped, and tags added in order until the serialised
 * object would pass RAW_MAX_BYTES, so one vendor's huge tag cannot bloat every row.
 */
export function jsonSafe(tags: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let size = 2; // "{}"
  for (const [key, value] of Object.entries(tags)) {
    if (key === "errors") continue; // exifr's silentErrors list, not a tag
    const safe = safeValue(value);
    if (safe === undefined) continue;
    const entry = JSON.stringify({ [key]: safe }).length - 1; // minus braces, plus a comma
    if (size + entry > RAW_MAX_BYTES) continue;
    out[key] = safe;
    size += entry;
  }
  return out;
}

function safeValue(value: unknown): unknown {
  if (value === null || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string") {
    const trimmed = value.replace(/\0/g, "").trim();
    if (trimmed === "") return undefined;
    if (/^\d{4}:\d{2}:\d{2} \d{2}:\d{2}(:\d{2})?$/.test(trimmed)) {
      // Wall-clock time: ISO form without a zone, since EXIF does not say which one.
      return (exifDateToIso(trimmed) ?? trimmed).replace(/\.000Z$/, "");
    }
    return trimmed.slice(0, RAW_MAX_STRING);
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  if (Array.isArray(value)) {
    if (value.length > RAW_MAX_ARRAY) return undefined;
    const items = value.map(safeValue);
    return items.some((v) => v === undefined) ? undefined : items;
  }
  // Buffers, typed arrays, ArrayBuffers, nested objects from odd parsers: not JSON-worthy.
  return undefined;
}
