import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { renditionHashes } from "../../media/phash.ts";
import { type BlobStore, mediaKey } from "../../storage/blob-store.ts";
import { copyToLocalFile } from "../../storage/local-copy.ts";

/** Renditions are small: a thumbnail or sprite larger than this is not read. */
const RENDITION_MAX_BYTES = 64 * 1024 * 1024;

/**
 * A version's perceptual hashes from the renditions already stored (the backfill, issue 32): the
 * thumbnail and the sprite, read in place on disk or copied down from S3 to a temporary directory.
 */
export async function hashStoredRenditions(
  store: BlobStore,
  row: {
    directory: string;
    renditions: {
      thumbnail?: string;
      sprite?: { file: string; columns: number; rows: number; width: number; height: number; interval: number };
    };
    duration: number | null;
  },
): Promise<bigint[]> {
  const work = await mkdtemp(path.join(os.tmpdir(), "hangar-hash-"));
  try {
    const files = [row.renditions.thumbnail, row.renditions.sprite?.file].filter((f): f is string => !!f);
    for (const f of files) {
      const to = path.join(work, f);
      await mkdir(path.dirname(to), { recursive: true });
      await copyToLocalFile(store, mediaKey(row.directory, f), to, RENDITION_MAX_BYTES);
    }
    return await renditionHashes(work, row.renditions, row.duration);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
