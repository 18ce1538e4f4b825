import type { Asset } from "@hangar/contract";
import type { Renditions } from "../../db/types.ts";

/** What the media URLs of an asset or a version are made from. */
export interface MediaSource {
  directory: string | null;
  renditions: Renditions | null;
  processed_at: Date | null;
}

export type MediaUrls = Pick<
  Asset,
  "thumbnail_url" | "grid_url" | "video_url" | "large_url" | "fps" | "sprite" | "pages" | "preview_unavailable"
>;

/** Renditions under /media/{directory}/, versioned for caching by when they were made. */
export function mediaUrls(row: MediaSource): MediaUrls {
  const r = row.renditions ?? {};
  const v = row.processed_at ? `?v=${row.processed_at.getTime()}` : "";
  const media = (file: string | undefined) => (file && row.directory ? `/media/${row.directory}/${file}${v}` : null);
  const spriteUrl = media(r.sprite?.file);
  let sprite: MediaUrls["sprite"] = null;
  if (r.sprite && spriteUrl) {
    const { file: _file, ...tiles } = r.sprite;
    sprite = { url: spriteUrl, ...tiles };
  }
  return {
    thumbnail_url: media(r.thumbnail),
    grid_url: media(r.grid ?? r.thumbnail),
    video_url: media(r.video),
    large_url: media(r.large),
    fps: r.fps ?? null,
    sprite,
    pages: (r.pages ?? []).map((p) => ({
      number: p.number,
      url: media(p.file) ?? "",
      width: p.width,
      height: p.height,
      label: p.label ?? null,
    })),
    preview_unavailable: r.preview_unavailable ?? null,
  };
}
