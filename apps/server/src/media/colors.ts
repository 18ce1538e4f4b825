import { LISTING_COLOR_NAMES } from "@hangar/contract";
import { type ImageInput, pixelsOf, sharpFromPixels } from "./image.ts";
import { deltaE, hexToRgb, type Lab, labToHex, rgbToLab } from "./lab.ts";

// The colour science is in lab.ts (no sharp there: the AI actions' thread reads it).
export * from "./lab.ts";

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

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
