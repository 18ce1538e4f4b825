import { FACE_QUALITY_MIN, type Face, type FaceBox } from "@hangar/contract";
import type { FaceRow } from "./repo.ts";

const round = (v: number) => Math.round(v * 10_000) / 10_000;

/**
 * The picture a face is on, as a member reads it (renditions with the session, versioned like the
 * asset's own URLs), and its box on that picture: frame 0 the thumbnail (or first page), a page, or a
 * video's key frame as a tile of the scrub-bar sprite (the box moved into the sprite's coordinates).
 */
function pictureOf(row: FaceRow): { url: string | null; box: FaceBox } {
  const box = row.box.map(round) as FaceBox;
  const r = row.renditions ?? {};
  if (!row.directory) return { url: null, box };
  const v = row.processed_at ? `?v=${row.processed_at.getTime()}` : "";
  const url = (file: string | undefined) => (file ? `/media/${row.directory}/${file}${v}` : null);
  if (r.pages?.length) return { url: url(r.pages[row.frame]?.file), box };
  if (row.frame > 0 && r.sprite) {
    const s = r.sprite;
    const tile = row.frame - 1;
    const w = s.columns * s.width;
    const h = s.rows * s.height;
    const left = (tile % s.columns) * s.width;
    const top = Math.floor(tile / s.columns) * s.height;
    return {
      url: url(s.file),
      box: [
        round((left + box[0] * s.width) / w),
        round((top + box[1] * s.height) / h),
        round((box[2] * s.width) / w),
        round((box[3] * s.height) / h),
      ],
    };
  }
  return { url: url(r.thumbnail), box };
}

export function toFace(row: FaceRow): Face {
  const picture = pictureOf(row);
  return {
    id: row.id,
    asset_id: row.asset_id,
    frame: row.frame,
    box: row.box.map(round) as FaceBox,
    quality: round(row.quality),
    groupable: row.quality >= FACE_QUALITY_MIN,
    person: row.person_id ? { id: row.person_id, name: row.person_name } : null,
    by_user: row.by_user,
    picture_url: picture.url,
    picture_box: picture.box,
  };
}
