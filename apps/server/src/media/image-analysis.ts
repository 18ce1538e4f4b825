import { analyseColors, type ColorAnalysis } from "./colors.ts";
import { type ExifData, readExif } from "./exif.ts";
import { decodeImage, type RenderedImage, type RenderImageOptions, writeRenditions } from "./image.ts";
import { analyseQuality, type QualityScores } from "./quality.ts";

/**
 * Everything the process-asset job needs from an image original, with one pixel decode: the ≤1024 px
 * preview feeds the renditions, the placeholder, the palette and the quality scores. EXIF is read by
 * exifr from the file's metadata segments (no pixel decode) in parallel.
 */

export interface ImageAnalysis {
  render: RenderedImage;
  exif: ExifData;
  colors: ColorAnalysis;
  quality: QualityScores;
}

/** Render renditions into `outDir` and analyse the original at `path`. Throws ImageError like renderImage. */
export async function analyseImage(
  path: string,
  outDir: string,
  opts: RenderImageOptions = {},
): Promise<ImageAnalysis> {
  const [decoded, exif] = await Promise.all([
    decodeImage(path, { ...opts, previewSize: Math.max(opts.previewSize ?? 0, opts.thumbnailSize ?? 1024) }),
    readExif(path),
  ]);
  const [render, colors, quality] = await Promise.all([
    writeRenditions(decoded, outDir, opts),
    analyseColors(decoded.preview),
    analyseQuality(decoded.preview),
  ]);
  return { render, exif, colors, quality };
}
