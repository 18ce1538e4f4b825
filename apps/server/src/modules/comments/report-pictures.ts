import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { videoFrame } from "../../media/video.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import { mediaKey } from "../../storage/blob-store.ts";
import { copyToLocalFile } from "../../storage/local-copy.ts";
import type { CommentRecord } from "./repo.ts";

/** A version of an asset that comments in a report were made on: where its pictures are. */
export interface ExportVersion {
  id: string;
  number: number;
  file_type: string;
  directory: string | null;
  renditions: unknown;
}

/** One picture of a report: an image, a document page or a video frame, with the annotations on it. */
export interface ReportPicture {
  version: ExportVersion;
  /** "Page 2", "00:03.20"; null for an image (or a video's poster). */
  label: string | null;
  /** The picture's JPEG key, or the video's time to grab a frame at. */
  source: { key: string } | { videoKey: string; at: number };
  comments: CommentRecord[];
}

/** More frames than this in one report are not extracted (each is an ffmpeg run): their shapes are listed only. */
export const REPORT_FRAMES_MAX = 100;

export const timecode = (s: number | null) => {
  if (s === null) return "";
  const m = Math.floor(s / 60);
  return `${String(m).padStart(2, "0")}:${(s - m * 60).toFixed(2).padStart(5, "0")}`;
};

/**
 * The pictures an asset's annotated comments are on, in order (version, then page or time): each
 * comment on the version it was made on — a document's page, a video's frame at its time (the
 * poster for a remark without one), else the image's thumbnail.
 */
export function picturesOf(numbered: CommentRecord[], versions: ExportVersion[]): ReportPicture[] {
  const byId = new Map(versions.map((v) => [v.id, v]));
  const several = new Set(numbered.map((c) => c.version_id)).size > 1;
  const pictures = new Map<string, ReportPicture & { order: number }>();
  for (const c of numbered) {
    const version = byId.get(c.version_id);
    if (!version?.directory) continue;
    const dir = version.directory;
    let key: string;
    let picture: Omit<ReportPicture, "comments" | "version"> & { order: number };
    if (version.file_type === "DOCUMENT") {
      const page = c.page ?? 1;
      key = `p${page}`;
      picture = { label: `Page ${page}`, source: { key: mediaKey(dir, `pages/${page}.jpg`) }, order: page };
    } else if (version.file_type === "VIDEO" && c.timestamp_s !== null) {
      const at = Math.round(c.timestamp_s * 1000) / 1000;
      const video = (version.renditions as { video?: string } | null)?.video ?? "web.mp4";
      key = `t${at}`;
      picture = { label: `Frame ${timecode(at)}`, source: { videoKey: mediaKey(dir, video), at }, order: at };
    } else {
      key = "poster";
      picture = { label: null, source: { key: mediaKey(dir, "thumbnail.jpg") }, order: -1 };
    }
    key = `${version.id}:${key}`;
    const found = pictures.get(key);
    if (found) found.comments.push(c);
    else {
      const label = several ? [`Version ${version.number}`, picture.label].filter(Boolean).join(" · ") : picture.label;
      pictures.set(key, { ...picture, label, version, comments: [c] });
    }
  }
  return [...pictures.values()]
    .sort((a, b) => a.version.number - b.version.number || a.order - b.order)
    .map(({ order: _order, ...p }) => p);
}

/**
 * Reads the report's pictures' bytes: stored JPEGs from the store, video frames grabbed with ffmpeg
 * from the version's web video (a local copy when the store is not a disk), at most
 * REPORT_FRAMES_MAX frames per report. `close` removes what was copied or grabbed.
 */
export function pictureReader(store: BlobStore) {
  let work: Promise<string> | null = null;
  const dir = () => {
    work ??= mkdtemp(path.join(os.tmpdir(), "hangar-report-"));
    return work;
  };
  const videos = new Map<string, Promise<string | null>>();
  let frames = 0;

  const localVideo = (key: string) => {
    let found = videos.get(key);
    if (!found) {
      found = (async () => {
        const local = store.localPath(key);
        if (local) return local;
        const stat = await store.stat(key);
        if (!stat) return null;
        const file = path.join(await dir(), `video-${videos.size}.mp4`);
        await copyToLocalFile(store, key, file, stat.size);
        return file;
      })().catch(() => null);
      videos.set(key, found);
    }
    return found;
  };

  return {
    /** The picture's JPEG, or null when it cannot be had (gone, undecodable, over the frame limit). */
    async read(p: ReportPicture): Promise<Buffer | null> {
      try {
        if ("key" in p.source) return await buffer(await store.read(p.source.key));
        if (frames >= REPORT_FRAMES_MAX) return null;
        frames++;
        const video = await localVideo(p.source.videoKey);
        if (!video) return null;
        const name = `frame-${frames}.jpg`;
        return await readFile(await videoFrame(video, p.source.at, await dir(), name));
      } catch {
        return null;
      }
    },
    async close() {
      if (work) await rm(await work, { recursive: true, force: true });
    },
  };
}
