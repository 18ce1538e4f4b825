import { LISTING_COLOR_NAMES } from "@hangar/contract";
import { type ImageInput, pixelsOf, sharpFromPixels } from "./image.ts";

/**
 * Dominant colours for the listing's colour filters (spec: colors.dominant_colors, simplified_colors,
 * color_search). The palette is found by k-means in CIELAB (perceptually even, so clusters match what
 * people see) on a 64×64 downscale, with a deterministic seeding so the same image always gives the
 * same palette.
 */

/** The fixed set of simplified colour names; the contract owns it (the listing filter validates against it). */
export const COLOR_NAMES = LISTING_COLOR_NAMES;
export type ColorName = (typeof COLOR_NAMES)[number];

/**
 * Two colours "match" for color_search when deltaE (CIE76) ≤ this. 20 is roughly "same colour family,
 * clearly different shade"; JNDs are ~2.3, and 10 would miss most photos of "that red".
 */
export const COLOR_MATCH_DELTA_E = 20;

/** A simplified name is reported when its palette colours cover at least this share of the image. */
export const SIMPLIFIED_MIN_SHARE = 0.05;

const SAMPLE_SIZE = 64;
const MAX_COLORS = 5;
/** Seeds and final clusters closer than this (CIE76) are one colour; stops noise splitting a flat area. */
const MERGE_DELTA_E = 10;
const MAX_ITERATIONS = 20;

export type Lab = { l: number; a: number; b: number };

export interface PaletteColor {
  hex: string;
  /** Fraction of the (opaque) pixels, 0–1; the palette's shares sum to 1. */
  share: number;
  lab: Lab;
  name: ColorName;
}

export interface ColorAnalysis {
  /** Most prominent first, at most 5. Empty for a fully transparent image. */
  palette: PaletteColor[];
  /** Distinct names covering ≥ SIMPLIFIED_MIN_SHARE, most prominent first. */
  simplified: ColorName[];
}

/** Palette and colour names of an image (a path, encoded bytes, or a decoded preview). */
export async function analyseColors(input: ImageInput): Promise<ColorAnalysis> {
  const pixels = await pixelsOf(input, 256);
  // fit "fill" stretches, which keeps every region's share of the area (unlike a crop).
  const { data } = await sharpFromPixels(pixels)
    .resize({ width: SAMPLE_SIZE, height: SAMPLE_SIZE, fit: "fill" })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return paletteFromRgba(data);
}

/** The clustering itself, on RGBA bytes; pixels under half opacity are ignored. */
export function paletteFromRgba(rgba: Uint8Array): ColorAnalysis {
  // Bin by 4 bits per channel; each bin keeps its pixel count and the mean Lab of its members, so the
  // clustering works on ≤4096 weighted points with exact means.
  const bins = new Map<number, { n: number; l: number; a: number; b: number }>();
  let total = 0;
  for (let i = 0; i + 3 < rgba.length; i += 4) {
    if (rgba[i + 3]! < 128) continue;
    const r = rgba[i]!;
    const g = rgba[i + 1]!;
    const bl = rgba[i + 2]!;
    const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (bl >> 4);
    const lab = rgbToLab(r, g, bl);
    const bin = bins.get(key) ?? { n: 0, l: 0, a: 0, b: 0 };
    bin.n++;
    bin.l += lab.l;
    bin.a += lab.a;
    bin.b += lab.b;
    bins.set(key, bin);
    total++;
  }
  if (total === 0) return { palette: [], simplified: [] };

  const points = [...bins.entries()]
    .sort((x, y) => x[0] - y[0]) // fixed order: ties below resolve the same way every run
    .map(([, v]) => ({ n: v.n, lab: { l: v.l / v.n, a: v.a / v.n, b: v.b / v.n } }));

  // Seeding: the most populous bin, then repeatedly the bin with the largest n·d² to its nearest
  // seed (a deterministic k-means++), skipping bins within MERGE_DELTA_E of an existing seed.
  const seeds: Lab[] = [points.reduce((best, p) => (p.n > best.n ? p : best)).lab];
  while (seeds.length < MAX_COLORS) {
    let best: Lab | null = null;
    let bestScore = 0;
    for (const p of points) {
      const d = Math.min(...seeds.map((s) => deltaE(s, p.lab)));
      if (d < MERGE_DELTA_E) continue;
      const score = p.n * d * d;
      if (score > bestScore) {
        bestScore = score;
        best = p.lab;
      }
    }
    if (!best) break;
    seeds.push(best);
  }

  // Lloyd iterations on the weighted bins.
  let centroids = seeds;
  let counts: number[] = [];
  for (let iter = 0; iter < MAX_ITERATIONS; iter++) {
    const sums = centroids.map(() => ({ n: 0, l: 0, a: 0, b: 0 }));
    for (const p of points) {
      const s = sums[nearest(centroids, p.lab)]!;
      s.n += p.n;
      s.l += p.lab.l * p.n;
      s.a += p.lab.a * p.n;
      s.b += p.lab.b * p.n;
    }
    const next = sums.map((s, k) => (s.n ? { l: s.l / s.n, a: s.a / s.n, b: s.b / s.n } : centroids[k]!));
    counts = sums.map((s) => s.n);
    const moved = next.some((c, k) => deltaE(c, centroids[k]!) > 0.01);
    centroids = next;
    if (!moved) break;
  }

  // Merge clusters that converged onto the same colour, then drop empty ones.
  let clusters = centroids.map((lab, k) => ({ lab, n: counts[k] ?? 0 })).filter((c) => c.n > 0);
  for (;;) {
    let pair: [number, number] | null = null;
    let closest = MERGE_DELTA_E;
    for (let i = 0; i < clusters.length; i++) {
      for (let j = i + 1; j < clusters.length; j++) {
        const d = deltaE(clusters[i]!.lab, clusters[j]!.lab);
        if (d < closest) {
          closest = d;
          pair = [i, j];
        }
      }
    }
    if (!pair) break;
    const [x, y] = [clusters[pair[0]]!, clusters[pair[1]]!];
    const n = x.n + y.n;
    const lab = {
      l: (x.lab.l * x.n + y.lab.l * y.n) / n,
      a: (x.lab.a * x.n + y.lab.a * y.n) / n,
      b: (x.lab.b * x.n + y.lab.b * y.n) / n,
    };
    clusters = clusters.filter((_, k) => k !== pair[0] && k !== pair[1]).concat({ lab, n });
  }

  const palette = clusters
    .map((c) => {
      const hex = labToHex(c.lab);
      return {
        hex,
        share: Math.round((c.n / total) * 10_000) / 10_000,
        lab: { l: round2(c.lab.l), a: round2(c.lab.a), b: round2(c.lab.b) },
        name: colorName(hex),
      };
    })
    .sort((x, y) => y.share - x.share || x.hex.localeCompare(y.hex));

  const byName = new Map<ColorName, number>();
  for (const c of palette) byName.set(c.name, (byName.get(c.name) ?? 0) + c.share);
  const simplified = [...byName.entries()]
    .filter(([, share]) => share >= SIMPLIFIED_MIN_SHARE)
    .sort((x, y) => y[1] - x[1] || COLOR_NAMES.indexOf(x[0]) - COLOR_NAMES.indexOf(y[0]))
    .map(([name]) => name);
  return { palette, simplified };
}

/**
 * The simplified name of a colour. Rules, in order (L, C from CIELAB; hue h from HSV of sRGB, whose
 * sectors match everyday colour words better than the Lab hue angle, where pure blue sits at 306°):
 *  - nearly black (L < 10) or pale (L > 90 with C < 25: cream, beige, lavender) regardless of hue;
 *    achromatic (C < 12): L < 20 black, L > 90 white, else gray.
 *  - by hue: h < 15 or ≥ 345 red (pink when L > 70); 15–45 orange (brown when L < 50, or when dull
 *    (HSV saturation < 0.45) and L < 80: tan); 45–70 yellow (brown when L < 55: olive, dark gold);
 *    70–170 green; 170–255 blue; 255–290 purple;
 *    290–345 purple, or pink when light (L ≥ 65, or L ≥ 50 from 315°).
 */
export function colorName(hex: string): ColorName {
  const [r, g, b] = hexToRgb(hex);
  const { l, a, b: bb } = rgbToLab(r, g, b);
  const chroma = Math.hypot(a, bb);
  if (l < 10) return "black";
  if (l > 90 && chroma < 25) return "white";
  if (chroma < 12) return l < 20 ? "black" : l > 90 ? "white" : "gray";

  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const saturation = max === 0 ? 0 : (max - min) / max;
  const h = hsvHue(r, g, b, max, min);
  if (h < 15 || h >= 345) return l > 70 ? "pink" : "red";
  if (h < 45) return l < 50 || (saturation < 0.45 && l < 80) ? "brown" : "orange";
  if (h < 70) return l < 55 ? "brown" : "yellow";
  if (h < 170) return "green";
  if (h < 255) return "blue";
  if (h < 290) return "purple";
  return l >= 65 || (h >= 315 && l >= 50) ? "pink" : "purple";
}

function hsvHue(r: number, g: number, b: number, max: number, min: number): number {
  const d = max - min;
  if (d === 0) return 0;
  let h: number;
  if (max === r) h = ((g - b) / d) % 6;
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

function nearest(centroids: Lab[], p: Lab): number {
  let best = 0;
  let bestD = Number.POSITIVE_INFINITY;
  for (let k = 0; k < centroids.length; k++) {
    const c = centroids[k]!;
    const d = (c.l - p.l) ** 2 + (c.a - p.a) ** 2 + (c.b - p.b) ** 2;
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  return best;
}

// ---- colour space helpers (sRGB, D65) --------------------------------------------------------------

const SRGB_TO_LINEAR = Array.from({ length: 256 }, (_, i) => {
  const c = i / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});
const WHITE = { x: 0.95047, y: 1, z: 1.08883 };

export function hexToRgb(hex: string): [number, number, number] {
  const m = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(hex.trim());
  if (!m) throw new Error(`Not a colour: ${hex}`);
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join("") : m[1]!;
  return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

export function rgbToLab(r: number, g: number, b: number): Lab {
  const R = SRGB_TO_LINEAR[r]!;
  const G = SRGB_TO_LINEAR[g]!;
  const B = SRGB_TO_LINEAR[b]!;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 / 116) * t + 16 / 116);
  const fx = f((0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / WHITE.x);
  const fy = f((0.2126729 * R + 0.7151522 * G + 0.072175 * B) / WHITE.y);
  const fz = f((0.0193339 * R + 0.119192 * G + 0.9503041 * B) / WHITE.z);
  return { l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz) };
}

/** "#rrggbb" (or "#rgb") to CIELAB (D65). Throws on anything else. */
export function hexToLab(hex: string): Lab {
  const [r, g, b] = hexToRgb(hex);
  return rgbToLab(r, g, b);
}

/** CIELAB to "#rrggbb", clamping colours outside the sRGB gamut. */
export function labToHex(lab: Lab): string {
  const fy = (lab.l + 16) / 116;
  const fx = fy + lab.a / 500;
  const fz = fy - lab.b / 200;
  const inv = (t: number) => (t ** 3 > 216 / 24389 ? t ** 3 : (116 * t - 16) / (24389 / 27));
  const x = inv(fx) * WHITE.x;
  const y = inv(fy) * WHITE.y;
  const z = inv(fz) * WHITE.z;
  const lin = [
    3.2404542 * x - 1.5371385 * y - 0.4985314 * z,
    -0.969266 * x + 1.8760108 * y + 0.041556 * z,
    0.0556434 * x - 0.2040259 * y + 1.0572252 * z,
  ];
  return `#${lin
    .map((c) => {
      const v = c <= 0.0031308 ? 12.92 * c : 1.055 * Math.max(c, 0) ** (1 / 2.4) - 0.055;
      return Math.round(Math.min(1, Math.max(0, v)) * 255)
        .toString(16)
        .padStart(2, "0");
    })
    .join("")}`;
}

/**
 * CIE76 colour difference: Euclidean distance in CIELAB. This is the one COLOR_MATCH_DELTA_E is
 * calibrated for, chosen because the listing can compute it in SQL from stored L*, a*, b* values.
 */
export function deltaE(x: Lab, y: Lab): number {
  return Math.hypot(x.l - y.l, x.a - y.a, x.b - y.b);
}

/** CIEDE2000 (Sharma et al. 2005), for callers that can afford it; more uniform for blues and greys. */
export function deltaE2000(x: Lab, y: Lab): number {
  const rad = Math.PI / 180;
  const c1 = Math.hypot(x.a, x.b);
  const c2 = Math.hypot(y.a, y.b);
  const cBar7 = ((c1 + c2) / 2) ** 7;
  const g = 0.5 * (1 - Math.sqrt(cBar7 / (cBar7 + 25 ** 7)));
  const a1 = (1 + g) * x.a;
  const a2 = (1 + g) * y.a;
  const c1p = Math.hypot(a1, x.b);
  const c2p = Math.hypot(a2, y.b);
  const hue = (b: number, a: number) => (b === 0 && a === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360);
  const h1p = hue(x.b, a1);
  const h2p = hue(y.b, a2);
  const dL = y.l - x.l;
  const dC = c2p - c1p;
  let dh = 0;
  if (c1p * c2p !== 0) {
    dh = h2p - h1p;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dH = 2 * Math.sqrt(c1p * c2p) * Math.sin((dh / 2) * rad);
  const lBar = (x.l + y.l) / 2;
  const cBar = (c1p + c2p) / 2;
  let hBar = h1p + h2p;
  if (c1p * c2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hBar /= 2;
    else hBar = h1p + h2p < 360 ? (hBar + 360) / 2 : (hBar - 360) / 2;
  }
  const t =
    1 -
    0.17 * Math.cos((hBar - 30) * rad) +
    0.24 * Math.cos(2 * hBar * rad) +
    0.32 * Math.cos((3 * hBar + 6) * rad) -
    0.2 * Math.cos((4 * hBar - 63) * rad);
  const sL = 1 + (0.015 * (lBar - 50) ** 2) / Math.sqrt(20 + (lBar - 50) ** 2);
  const sC = 1 + 0.045 * cBar;
  const sH = 1 + 0.015 * cBar * t;
  const cBar7p = cBar ** 7;
  const rT = -2 * Math.sqrt(cBar7p / (cBar7p + 25 ** 7)) * Math.sin(60 * Math.exp(-(((hBar - 275) / 25) ** 2)) * rad);
  return Math.sqrt((dL / sL) ** 2 + (dC / sC) ** 2 + (dH / sH) ** 2 + rT * (dC / sC) * (dH / sH));
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
