import { WATERMARK_VISITOR_MAX } from "@hangar/contract";

/**
 * The media paths of a watermarking share link's visitors (issue 33): `/media/{ws}/{dir}/wm/{tag}/{file}`,
 * where the tag is the link's watermark hash and, for `{visitor}`, the visitor's name (base64url). The
 * URL is signed, so neither can be changed; the media route refuses a plain path to such a visitor and
 * a tag whose hash is not the link's current one.
 */
export const WATERMARK_SEGMENT = /^wm\/([0-9a-f]{16})\.([A-Za-z0-9_-]{0,320})\/(.+)$/;

export function watermarkTag(hash: string, visitor: string | undefined): string {
  const who = (visitor ?? "").trim().slice(0, WATERMARK_VISITOR_MAX);
  return `${hash}.${Buffer.from(who, "utf8").toString("base64url")}`;
}

export function parseWatermarkFile(file: string): { hash: string; visitor: string; file: string } | null {
  const m = WATERMARK_SEGMENT.exec(file);
  if (!m) return null;
  return { hash: m[1]!, visitor: Buffer.from(m[2]!, "base64url").toString("utf8"), file: m[3]! };
}

/** `/media/{ws}/{dir}/{file}` → the same file watermarked under `tag`. */
export function watermarkedPath(path: string, tag: string): string {
  const m = /^(\/media\/[0-9a-f-]{36}\/[0-9a-f-]{36}\/)(.+)$/.exec(path);
  return m ? `${m[1]}wm/${tag}/${m[2]}` : path;
}
