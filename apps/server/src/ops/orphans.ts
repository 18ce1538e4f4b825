import type { Db } from "../db/db.ts";
import type { BlobStore } from "../storage/blob-store.ts";
import { orphansRepo } from "./orphans-repo.ts";

/** Bytes younger than this are left alone: a folder upload writes its files before their rows. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
const BATCH = 500;

/**
 * Removes bytes no row points to: `media/{workspace}/{asset}/…` without an asset row and
 * `uploads/{id}/…` without an upload row, older than the grace period. A process killed between
 * writing bytes and inserting their row (a folder upload, an API process `kill -9`ed mid-request)
 * leaves such bytes; the upload cleanup removes rows without bytes. Together: after both jobs, no
 * asset row lacks its bytes and no bytes lack their row.
 */
export async function sweepOrphans(deps: { db: Db; store: BlobStore }, now = Date.now()): Promise<number> {
  const { db, store } = deps;
  // prefix → newest write seen under it (a prefix is only removed when all of it is old)
  const groups = new Map<string, { kind: "media" | "upload"; id: string }>();
  for await (const blob of store.list("")) {
    const parts = blob.key.split("/");
    if (parts[0] === "media" && parts.length >= 4) {
      const directory = `${parts[1]}/${parts[2]}`;
      groups.set(`media/${directory}`, { kind: "media", id: directory });
    } else if (parts[0] === "uploads" && parts.length >= 3) {
      groups.set(`uploads/${parts[1]}`, { kind: "upload", id: parts[1]! });
    }
  }
  const entries = [...groups];
  let removed = 0;
  for (let i = 0; i < entries.length; i += BATCH) {
    const batch = entries.slice(i, i + BATCH);
    const media = await orphansRepo.knownDirectories(
      db,
      batch.filter(([, g]) => g.kind === "media").map(([, g]) => g.id),
    );
    const uploads = await orphansRepo.knownUploads(
      db,
      batch.filter(([, g]) => g.kind === "upload").map(([, g]) => g.id),
    );
    for (const [prefix, g] of batch) {
      if (g.kind === "media" ? media.has(g.id) : uploads.has(g.id)) continue;
      if (!(await olderThan(store, prefix, now - ORPHAN_GRACE_MS))) continue;
      await store.deletePrefix(`${prefix}/`);
      removed += 1;
    }
  }
  return removed;
}

async function olderThan(store: BlobStore, prefix: string, cutoff: number): Promise<boolean> {
  for await (const blob of store.list(`${prefix}/`)) {
    const s = await store.stat(blob.key);
    if (s && s.mtime.getTime() > cutoff) return false;
  }
  return true;
}
