import path from "node:path";
import sharp from "sharp";
import phash from "sharp-phash";

/**
 * Perceptual hashes (issue 32; docs/architecture.md §6.1): a 64-bit pHash (sharp-phash: 32 × 32
 * greyscale, DCT, the 8 × 8 low frequencies against their mean) of a picture the pipeline already
 * rendered, so the original is never decoded again. Pure: files in, signed 64-bit integers out.
 */

/** The hash as a signed 64-bit integer (PostgreSQL's bigint). */
export const hashOfBits = (bits: string): bigint => BigInt.asIntN(64, BigInt(`0b${bits}`));

/** Hamming distance of two hashes. */
export function hashDistance(a: bigint, b: bigint): number {
  let x = BigInt.asUintN(64, a ^ b);
  let n = 0;
  while (x) {
    n += Number(x & 1n);
    x >>= 1n;
  }
  return n;
}

/** The pHash of one picture (a file path or its bytes). */
export async function pictureHash(input: string | Buffer): Promise<bigint> {
  return hashOfBits(await phash(input, { limitInputPixels: 64_000_000 }));
}

/** What a version's renditions say of its pictures (the pipeline's Renditions, structurally). */
interface Pictures {
  thumbnail?: string;
  sprite?: { file: string; columns: number; rows: number; width: number; height: number; interval: number };
}

/** Key frames hashed from a video's scrub-bar sprite, at most this many (evenly spread). */
export const KEY_FRAMES = 8;

/**
 * A video's key frames: tiles of its sprite (one every `interval` seconds, `columns` per row),
 * evenly spread over the first `frames` of them; each tile cut out and hashed.
 */
export async function spriteHashes(
  spritePath: string,
  sprite: { columns: number; rows: number; width: number; height: number; interval: number },
  duration: number | null,
): Promise<bigint[]> {
  const tiles = sprite.columns * sprite.rows;
  const frames = Math.max(1, Math.min(tiles, duration ? Math.ceil(duration / sprite.interval) : tiles));
  const count = Math.min(KEY_FRAMES, frames);
  const picks = [
    ...new Set(Array.from({ length: count }, (_, k) => Math.round((k * (frames - 1)) / Math.max(1, count - 1)))),
  ];
  const out: bigint[] = [];
  for (const i of picks) {
    const left = (i % sprite.columns) * sprite.width;
    const top = Math.floor(i / sprite.columns) * sprite.height;
    const tile = await sharp(spritePath)
      .extract({ left, top, width: sprite.width, height: sprite.height })
      .png()
      .toBuffer()
      .catch(() => null);
    if (tile) out.push(await pictureHash(tile));
  }
  return out;
}

/**
 * The hashes of what the pipeline rendered in `dir`: frame 0 the thumbnail (an image's, a document's
 * first page, a video's poster), then a video's key frames. None for other types.
 */
export async function renditionHashes(dir: string, renditions: Pictures, duration: number | null): Promise<bigint[]> {
  if (!renditions.thumbnail) return [];
  const out = [await pictureHash(path.join(dir, renditions.thumbnail))];
  if (renditions.sprite)
    out.push(...(await spriteHashes(path.join(dir, renditions.sprite.file), renditions.sprite, duration)));
  return out;
}
