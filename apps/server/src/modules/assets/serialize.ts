import { type Asset, type AssetAbilities, NO_RIGHTS, rightsStatus } from "@hangar/contract";
import { type Grant, issuerOf } from "../../platform/access.ts";
import type { UserActor, VisitorActor } from "../../platform/actor.ts";
import { watermarkedPath, watermarkTag } from "../../platform/watermark-path.ts";
import type { Signer } from "../../storage/signer.ts";
import { type MediaUrls, mediaUrls } from "./media-urls.ts";
import { assetAbilities } from "./policy.ts";
import type { AssetRow } from "./repo.ts";
import type { AssetViewRow } from "./view-repo.ts";
import { type LinkView, linkViewOf, visitorAsset } from "./visitor-view.ts";

export const ORIGINAL_URL_TTL_SECONDS = 24 * 3600;

type Relations = {
  tags: string[];
  aiTags: Array<{ label: string; confidence: number; type: string }>;
  boards: Array<{ id: string; name: string }>;
};

/** Who the answer is for: what they may do, and who the original's signed URL is issued to (re-checked on fetch). */
export interface Viewer {
  abilities: AssetAbilities;
  issuer: string;
  /**
   * A share-link visitor has no session: every rendition URL is signed for the link too, and each
   * fetch re-checks the link (access.requireIssuer). Members read renditions with their session.
   */
  signRenditions?: boolean;
  /** A share-link visitor: the answer is cut to what the link shows (visitor-view.ts). */
  link?: LinkView;
  /** The time the answer's `rights_status` is judged at (the runtime's clock); else the system's. */
  now?: Date;
  /**
   * A watermarking link's visitor (issue 33): every rendition URL points at its watermarked copy under
   * this tag (platform/watermark-path.ts); `stampOriginal`: the original's too.
   */
  watermark?: { tag: string; stampOriginal: boolean };
}

/** The viewer of an answer for this caller: a visitor's renditions are signed and the answer is the link's view. */
export const viewerOf = (actor: UserActor | VisitorActor, grant: Grant): Viewer =>
  actor.kind === "visitor"
    ? {
        abilities: assetAbilities(grant),
        issuer: issuerOf(actor),
        signRenditions: true,
        link: linkViewOf(actor),
        ...(actor.watermark
          ? {
              watermark: {
                tag: watermarkTag(actor.watermark.hash, actor.watermarkVisitor),
                stampOriginal: actor.watermark.downloads,
              },
            }
          : {}),
      }
    : { abilities: assetAbilities(grant), issuer: issuerOf(actor) };

/** The original's signed URL for the viewer: a watermarking link's stamped copy when it stamps downloads. */
export async function originalUrl(directory: string, signer: Signer, viewer: Viewer): Promise<string> {
  const plain = `/media/${directory}/original`;
  const path = viewer.watermark?.stampOriginal ? watermarkedPath(plain, viewer.watermark.tag) : plain;
  return signer.sign("GET", path, ORIGINAL_URL_TTL_SECONDS, viewer.issuer);
}

/** Visitors' rendition URLs last to the end of the next full hour: stable enough for the browser's cache. */
const visitorExpiry = () => (Math.floor(Date.now() / 3_600_000) + 2) * 3600;

/**
 * Signs every `/media/…?v=` URL of an answer for the viewer (visitors only). A watermarking link's
 * visitor gets its watermarked copies' URLs, and no scrub-bar sprite (its frames are the plain video's).
 */
export async function signMediaUrls(asset: MediaUrls, signer: Signer, viewer: Viewer): Promise<void> {
  const exp = visitorExpiry();
  const tag = viewer.watermark?.tag;
  const sign = async (url: string | null) => {
    if (!url) return url;
    const [plain, v] = url.split("?v=");
    const path = tag ? watermarkedPath(plain!, tag) : plain!;
    const signed = await signer.signUntil("GET", path, exp, viewer.issuer);
    return v ? `${signed}&v=${v}` : signed;
  };
  if (tag) asset.sprite = null;
  asset.thumbnail_url = await sign(asset.thumbnail_url);
  asset.grid_url = await sign(asset.grid_url);
  asset.video_url = await sign(asset.video_url);
  asset.large_url = await sign(asset.large_url);
  if (asset.sprite) asset.sprite.url = (await sign(asset.sprite.url)) ?? asset.sprite.url;
  for (const p of asset.pages) p.url = (await sign(p.url || null)) ?? "";
}

/** Media URLs: renditions under /media/{directory}/ (versioned for caching), the original signed. */
export async function toAsset(row: AssetRow, rel: Relations, signer: Signer, viewer: Viewer): Promise<Asset> {
  const m = mediaUrls(row);
  const ready = row.status !== "uploading" && row.directory !== null;
  return {
    id: row.id,
    abilities: viewer.abilities,
    workspace_id: row.workspace_id,
    name: row.name,
    description: row.description,
    file_type: row.file_type,
    file_extension: row.file_extension,
    mime_type: row.mime_type,
    size: row.size,
    status: row.status,
    error: row.status === "error" ? (row.error_reason ?? "Processing failed") : null,
    // The original only to whoever may download it (a link without allow_downloads hands none out).
    url: ready && viewer.abilities.download ? await originalUrl(row.directory!, signer, viewer) : null,
    thumbnail_url: m.thumbnail_url,
    grid_url: m.grid_url,
    video_url: m.video_url,
    large_url: m.large_url,
    fps: m.fps,
    sprite: m.sprite,
    placeholder: row.placeholder,
    directory: row.directory,
    favorite: false,
    open_comment_count: 0,
    field_chips: [],
    tags: rel.tags,
    ai_tags: rel.aiTags.map((t) => t.label),
    ai_tag_details: rel.aiTags,
    boards: rel.boards,
    width: row.width,
    height: row.height,
    duration: row.duration,
    page_count: row.page_count,
    pages: m.pages,
    preview_unavailable: m.preview_unavailable,
    upload_board_id: row.upload_board_id,
    is_temp: row.is_temp,
    sha256: row.sha256,
    exif:
      row.exif === null
        ? null
        : {
            make: row.camera_make,
            model: row.camera_model,
            lens: row.lens,
            iso: row.iso,
            aperture: row.aperture,
            exposure_time: row.exposure_time,
            focal_length: row.focal_length,
            date_taken: row.date_taken?.toISOString() ?? null,
            latitude: row.gps_latitude,
            longitude: row.gps_longitude,
            altitude: row.gps_altitude,
          },
    colors: row.palette ? { palette: row.palette, simplified: row.simplified_colors } : null,
    quality:
      row.quality_contrast === null
        ? null
        : {
            contrast: row.quality_contrast,
            sharpness: row.quality_sharpness ?? 0,
            brightness: row.quality_brightness ?? 0,
          },
    date_uploaded: row.date_uploaded.toISOString(),
    created_at: row.date_uploaded.toISOString(),
    updated_at: row.updated_at.toISOString(),
    version_count: row.version_count,
    current_version: { id: row.current_version_id ?? row.id, number: row.current_version_number },
    newer_version: null,
    duplicate_of: row.duplicate_of,
    approval: null,
    rights: NO_RIGHTS,
    rights_status: "none",
  };
}

/** The answer for one row of the asset view (view-repo.ts): the asset GET's and each listing item's. */
export async function serializeView(row: AssetViewRow, signer: Signer, viewer: Viewer): Promise<Asset> {
  const asset = await toAsset(row, { tags: row.tag_names, aiTags: row.ai, boards: row.board_list }, signer, viewer);
  asset.favorite = row.is_favorite; // the caller's own
  asset.open_comment_count = row.open_comments;
  asset.field_chips = row.field_chips.filter((c) => c.display !== "");
  asset.newer_version = row.newer_version;
  asset.approval = row.approval ?? null;
  asset.rights = row.rights ?? NO_RIGHTS;
  // The status at the time of the answer; visitors never receive an expired asset (access.ts).
  asset.rights_status = rightsStatus(asset.rights, viewer.now ?? new Date());
  if (viewer.signRenditions) await signMediaUrls(asset, signer, viewer);
  return viewer.link ? visitorAsset(asset, viewer.link) : asset;
}
