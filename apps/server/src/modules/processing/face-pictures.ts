import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { Renditions } from "../../db/types.ts";
import { KEY_FRAMES } from "../../media/phash.ts";
import { type BlobStore, mediaKey } from "../../storage/blob-store.ts";
import { copyToLocalFile } from "../../storage/local-copy.ts";

/** Renditions are small: a larger one is not read. */
const RENDITION_MAX_BYTES = 64 * 1024 * 1024;
/** A document's pages looked at, at most (a 500-page report is not a photo album). */
export const FACE_PAGES_MAX = 10;

/** One picture of a version, as a local file, and which frame of the version it is. */
export interface FacePicture {
  /** 0: the image, a document's first page, a video's poster; a page index; 1 + a key frame's sprite tile. */
  frame: number;
  file: string;
}

/**
 * The pictures of a version where faces are looked for (issue 32), from the renditions already
 * stored (never the original again): an image's thumbnail (1024 px); a document's pages (the first
 * FACE_PAGES_MAX; page 1 is frame 0); a video's poster and up to 8 key frames cut from its scrub-bar
 * sprite (frame 1 + the tile's index). `use` gets them in a temporary directory removed afterwards.
 */
export async function withFacePictures<T>(
  store: BlobStore,
  row: { directory: string; renditions: Renditions; duration: number | null },
  use: (pictures: FacePicture[]) => Promise<T>,
): Promise<T> {
  const work = await mkdtemp(path.join(os.tmpdir(), "hangar-faces-"));
  const local = async (file: string) => {
    const to = path.join(work, file);
    await mkdir(path.dirname(to), { recursive: true });
    await copyToLocalFile(store, mediaKey(row.directory, file), to, RENDITION_MAX_BYTES);
    return to;
  };
  try {
    const r = row.renditions;
    const out: FacePicture[] = [];
    if (r.pages?.length) {
      for (const [i, p] of r.pages.slice(0, FACE_PAGES_MAX).entries())
        out.push({ frame: i, file: await local(p.file) });
    } else if (r.thumbnail) out.push({ frame: 0, file: await local(r.thumbnail) });
    if (r.sprite && r.video) {
      const s = r.sprite;
      const sprite = await local(s.file);
      const tiles = s.columns * s.rows;
      const frames = Math.max(1, Math.min(tiles, row.duration ? Math.ceil(row.duration / s.interval) : tiles));
      const count = Math.min(KEY_FRAMES, frames);
      const picks = new Set(
        Array.from({ length: count }, (_, k) => Math.round((k * (frames - 1)) / Math.max(1, count - 1))),
      );
      for (const i of picks) {
        const file = path.join(work, `tile-${i}.png`);
        const left = (i % s.columns) * s.width;
        const top = Math.floor(i / s.columns) * s.height;
        const ok = await sharp(sprite)
          .extract({ left, top, width: s.width, height: s.height })
          .png()
          .toFile(file)
          .then(() => true)
          .catch(() => false);
        if (ok) out.push({ frame: 1 + i, file });
      }
    }
    return await use(out);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
