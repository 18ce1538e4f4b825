import type { AssetVersion } from "@hangar/contract";
import type { Signer } from "../../storage/signer.ts";
import { mediaUrls } from "./media-urls.ts";
import { originalUrl, signMediaUrls, type Viewer } from "./serialize.ts";
import type { versionsRepo } from "./versions-repo.ts";

type ListedVersion = Awaited<ReturnType<typeof versionsRepo.listed>>[number];

/** One version as the versions list answers it, for this viewer (its original signed when they may download). */
export async function serializeVersion(row: ListedVersion, signer: Signer, viewer: Viewer): Promise<AssetVersion> {
  const ready = row.status !== "uploading" && row.directory !== null;
  const version: AssetVersion = {
    id: row.id,
    asset_id: row.asset_id,
    number: row.number,
    is_current: row.id === row.current_id,
    name: row.name,
    status: row.status,
    error: row.status === "error" ? (row.error_reason ?? "Processing failed") : null,
    file_type: row.file_type,
    file_extension: row.file_extension,
    mime_type: row.mime_type,
    size: Number(row.size),
    sha256: row.sha256,
    width: row.width,
    height: row.height,
    duration: row.duration,
    page_count: row.page_count,
    url: ready && viewer.abilities.download ? await originalUrl(row.directory!, signer, viewer) : null,
    placeholder: row.placeholder,
    ...mediaUrls(row),
    comment_count: row.comment_count,
    open_comment_count: row.open_comment_count,
    created_at: row.created_at.toISOString(),
    uploaded_by: row.uploaded_by && row.uploader_name ? { id: row.uploaded_by, name: row.uploader_name } : null,
    made_current_at: row.made_current_at?.toISOString() ?? null,
    made_current_by: row.made_current_by && row.maker_name ? { id: row.made_current_by, name: row.maker_name } : null,
    duplicate_of: row.duplicate_of,
  };
  if (viewer.signRenditions) await signMediaUrls(version, signer, viewer);
  return version;
}
