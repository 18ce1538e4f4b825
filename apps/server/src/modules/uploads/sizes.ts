import { MAX_PARTS, MIB, MIN_PART_BYTES } from "@hangar/contract";
import type { AssetLifecycle } from "../assets/index.ts";

/** How long an upload's signed URLs last, and when an upload nobody finished is given up. */
export const UPLOAD_URL_TTL_SECONDS = 24 * 3600;
export const ABANDONED_AFTER_MS = 24 * 3600_000;
/** An ETag as S3 or a browser writes it (weak, quoted), compared bare. */
export const stripQuotes = (etag: string) => etag.replace(/^W\//, "").replace(/"/g, "").trim().toLowerCase();

/** Parts of at least 5 MiB (S3's minimum), whole MiB, never more than 10,000 of them. */
export function choosePartSize(size: number): number {
  const atLeast = Math.ceil(size / MAX_PARTS / MIB) * MIB;
  return Math.max(MIN_PART_BYTES, 8 * MIB, atLeast);
}

/** The same bytes already in the workspace (live or deleted): the client may still go on. */
export async function duplicatesOf(assets: AssetLifecycle, workspaceId: string, sha256: string) {
  return (await assets.withSha256(workspaceId, sha256)).map((d) => ({
    asset_id: d.asset_id,
    version_id: d.version_id,
    version_number: d.version_number,
    name: d.name,
    boards: d.boards,
    deleted: d.deleted,
  }));
}
