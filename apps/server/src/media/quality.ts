import { type ImageInput, pixelsOf, sharpFromPixels } from "./image.ts";

/**
 * Image quality scores for the listing's image_quality filter (min/max of contrast, sharpness,
 * brightness). Each is an integer 0–100, computed on luma of a grayscale downscale whose long side is
 * QUALITY_SAMPLE_SIZE (smaller images are used as they are, never enlarged), with any transparency
 * flattened onto white as in the thumbnail. Definitions:
 *
 *  - luma Y' = 0.2126 R' + 0.7152 G' + 0.0722 B' on the gamma-encoded sRGB values scaled to 0–1
 *    (Rec. 709 weights applied to non-linear values, i.e. what "luma" means in video).
 *  - brightness = 100 × mean(Y'). Black is 0, white 100, mid gray (#808080) 50.
 *  - contrast = 100 × min(1, σ(Y') / 0.3), the RMS contrast: σ is the standard deviation of Y'.
 *    Flat images score 0; a well-exposed photo (σ ≈ 0.2) ~67; σ ≥ 0.3 (half the pixels at each
 *    extreme gives the maximum, 0.5) scores 100.
 *  - sharpness = 100 × min(1, log10(1 + V) / 4), where V is the variance of the 4-neighbour Laplacian
 *    (0 1 0 / 1 −4 1 / 0 1 0) of Y' in 0–255 units over interior pixels: the classic focus measure,
 *    log-scaled because it spans orders of magnitude. V = 0 (flat) → 0, V ≈ 10 (very blurred) → 26,
 *    V ≈ 100 → 50, V ≈ 1000 (sharp photo) → 75, V ≥ 10⁴ (hard edges everywhere) → 100.
 *
 * Deterministic: same pixels, same numbers (no sampling, no randomness).
 */

export const QUALITY_SAMPLE_SIZE = 512;
const CONTRAST_FULL_SCALE_SIGMA = 0.3;
const SHARPNESS_FULL_SCALE_LOG10 = 4;

export interface QualityScores {
  contrast: number;
  sharpness: number;
  brightness: number;
}

/** Quality scores of an image (a path, encoded bytes, or a decoded preview). */
export async function analyseQuality(input: ImageInput): Promise<QualityScores> {
  const pixels = await pixelsOf(input, QUALITY_SAMPLE_SIZE);
  const { data, info } = await sharpFromPixels(pixels)
    .resize({
      width: QUALITY_SAMPLE_SIZE,
      height: QUALITY_SAMPLE_SIZE,
      fit: "inside",
      withoutEnlargement: true,
    })
    .flatten({ background: "#ffffff" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return qualityFromRgb(data, info.width, info.height, info.channels);
}

/** The scores from interleaved 8-bit RGB(A) pixels (alpha ignored: flatten first). */
export function qualityFromRgb(data: Uint8Array, width: number, height: number, channels: number): QualityScores {
  const n = width * height;
  const luma = new Float64Array(n);
  let sum = 0;
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    const y = 0.2126 * data[p]! + 0.7152 * data[p + 1]! + 0.0722 * data[p + 2]!;
    luma[i] = y;
    sum += y;
  }
  const mean = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (luma[i]! - mean) ** 2;
  const sigma = Math.sqrt(squares / n) / 255;

  // Laplacian over interior pixels; images thinner than 3 px have no interior and score 0.
  let lapSum = 0;
  let lapSquares = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const lap = luma[i - width]! + luma[i + width]! + luma[i - 1]! + luma[i + 1]! - 4 * luma[i]!;
      lapSum += lap;
      lapSquares += lap * lap;
      count++;
    }
  }
  const variance = count ? lapSquares / count - (lapSum / count) ** 2 : 0;

  return {
    brightness: score(mean / 255),
    contrast: score(sigma / CONTRAST_FULL_SCALE_SIGMA),
    sharpness: score(Math.log10(1 + Math.max(0, variance)) / SHARPNESS_FULL_SCALE_LOG10),
  };
}

function score(fraction: number): number {
  return Math.round(Math.min(1, Math.max(0, fraction)) * 100);
}
