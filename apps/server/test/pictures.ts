import sharp from "sharp";

/**
 * Pictures with structure for perceptual hashing (a flat colour hashes to noise): shapes and a
 * gradient laid out from `seed`, so each seed is a different picture and the same seed the same one.
 */
export function pictureSvg(seed: number, width = 640, height = 480) {
  let s = seed * 9301 + 49297;
  const rnd = () => {
    s = (s * 9301 + 49297) % 233280;
    return s / 233280;
  };
  const shapes = Array.from({ length: 6 }, () => {
    const x = Math.round(rnd() * width);
    const y = Math.round(rnd() * height);
    const r = Math.round(40 + rnd() * 140);
    const g = Math.round(rnd() * 255);
    return rnd() > 0.5
      ? `<circle cx="${x}" cy="${y}" r="${r}" fill="rgb(${g},${255 - g},${Math.round(rnd() * 255)})"/>`
      : `<rect x="${x - r}" y="${y - r / 2}" width="${r * 2}" height="${r}" fill="rgb(${255 - g},${g},${Math.round(rnd() * 255)})"/>`;
  }).join("");
  const a = Math.round(rnd() * 255);
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="rgb(${a},40,90)"/><stop offset="1" stop-color="rgb(20,${255 - a},200)"/>
      </linearGradient></defs>
      <rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`,
  );
}

/** The picture as a JPEG at `quality`, `width` pixels wide. */
export const pictureJpeg = (seed: number, quality = 90, width = 640) =>
  sharp(pictureSvg(seed)).resize({ width }).jpeg({ quality }).toBuffer();

/** The picture as a PNG, `width` pixels wide. */
export const picturePng = (seed: number, width = 640) => sharp(pictureSvg(seed)).resize({ width }).png().toBuffer();
