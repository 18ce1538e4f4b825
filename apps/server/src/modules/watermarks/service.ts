import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import {
  fillWatermarkText,
  WATERMARK_ANONYMOUS,
  type Watermark,
  type WatermarkedVideo,
  type WatermarkVideoPayload,
} from "@hangar/contract";
import type { Logger } from "pino";
import type { Db } from "../../db/db.ts";
import { probeVideo, transcodeTimeoutMs } from "../../media/video.ts";
import {
  type Mark,
  stampFormat,
  WATERMARK_FAILED,
  watermarkImage,
  watermarkPdf,
  watermarkVideo,
} from "../../media/watermark.ts";
import { notFound } from "../../platform/errors.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import { copyToLocalFile } from "../../storage/local-copy.ts";
import { watermarksRepo } from "./repo.ts";

/** Copies per link and settings beyond which `{visitor}` renditions are made for each request, not kept. */
export const WATERMARK_CACHE_MAX = 2000;
/** Originals larger than this are refused to a stamping link's visitors (a stamp reads the whole file). */
export const STAMP_MAX_BYTES = 512 * 1024 ** 2;
const TOO_LARGE = "This file is too large to be watermarked for download.";

/** The digest every watermarked URL and key names: a change of settings makes new ones. */
export function watermarkHash(w: Watermark): string {
  const canonical = JSON.stringify([w.kind, w.text, w.position, w.opacity, w.size, w.apply_to_downloads]);
  return createHash("sha256").update(canonical).digest("hex").slice(0, 16);
}

const STAMPABLE_IMAGES = new Set(["image/jpeg", "image/png", "image/webp", "image/tiff", "image/gif", "image/avif"]);

/** What the media route serves a watermarking link's visitor: a stored copy, or bytes made for this request. */
export type Served = { key: string; type: string } | { bytes: Buffer; type: string };

export interface WatermarkDeps {
  db: Db;
  store: BlobStore;
  clock: { now(): Date };
  log: Logger;
  enqueueVideo: (job: WatermarkVideoPayload) => Promise<void>;
}

/**
 * Watermarked renditions of share links (issue 33; docs/architecture.md "Watermarks"), made on demand
 * and kept in the blob store under `watermarks/{link}/{hash}/{variant}/{directory}/{file}`: the hash
 * of the link's settings, and the variant of the filled-in text (its visitor and day when the text
 * names them). Images and pages are made in the request under an advisory lock (two visitors: one
 * render); a video is burned in by a job with its progress in the registry.
 */
export function createWatermarks(deps: WatermarkDeps) {
  const { db, store } = deps;

  async function settings(linkId: string, hash: string) {
    const link = await watermarksRepo.link(db, linkId);
    if (!link?.watermark || link.watermark_hash !== hash) throw notFound();
    titles.set(linkId, { title: link.title, at: deps.clock.now().getTime() });
    return { ...link, watermark: link.watermark };
  }

  // `{link}`'s name for the cached path, kept a minute (a rename shows on new copies within it).
  const titles = new Map<string, { title: string; at: number }>();
  async function titleOf(linkId: string, hash: string): Promise<string> {
    const hit = titles.get(linkId);
    if (hit && deps.clock.now().getTime() - hit.at < 60_000) return hit.title;
    if (titles.size > 10_000) titles.clear();
    return (await settings(linkId, hash)).title;
  }

  /** The mark for this visitor today, and the variant naming its filled-in text. */
  function markFor(w: Watermark, title: string, visitor: string): { mark: Mark; variant: string } {
    const date = deps.clock.now().toISOString().slice(0, 10);
    const text =
      w.kind === "text"
        ? fillWatermarkText(w.text, { visitor: visitor || WATERMARK_ANONYMOUS, link: title, date })
        : null;
    const variant = createHash("sha256")
      .update(text ?? "logo")
      .digest("hex")
      .slice(0, 16);
    const mark: Mark = { text, logo: null, position: w.position, opacity: w.opacity, size: w.size };
    return { mark, variant };
  }

  const keyOf = (linkId: string, hash: string, variant: string, directory: string, file: string) =>
    `watermarks/${linkId}/${hash}/${variant}/${directory}/${file}`;

  async function readAll(key: string, maxBytes: number): Promise<Buffer> {
    const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-wm-"));
    try {
      const file = path.join(dir, "src");
      await copyToLocalFile(store, key, file, maxBytes);
      return await readFile(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Makes the stamped bytes of `file` (a rendition, or the original of type `mime`); null: nothing to stamp. */
  async function render(directory: string, file: string, mime: string, mark: Mark): Promise<Served | null> {
    const src = `media/${directory}/${file}`;
    const stat = await store.stat(src);
    if (!stat) throw notFound();
    if (file !== "original")
      return { bytes: await watermarkImage(await readAll(src, stat.size), mark), type: "image/jpeg" };
    if (stat.size > STAMP_MAX_BYTES) throw notFound(TOO_LARGE);
    if (mime === "application/pdf")
      return { bytes: Buffer.from(await watermarkPdf(await readAll(src, stat.size), mark)), type: mime };
    if (STAMPABLE_IMAGES.has(mime)) {
      const format = stampFormat(mime);
      return { bytes: await watermarkImage(await readAll(src, stat.size), mark, format), type: `image/${format}` };
    }
    return null;
  }

  return {
    hash: watermarkHash,

    /**
     * The watermarked copy of `file` of `{workspace}/{dir}` for a visitor of the link whose settings
     * hash is `hash` (404 when the link's settings have changed since the URL was made). An original
     * of a type that takes no stamp (video, office files) is served as it is: the link's download
     * rules decide about those. A video's web copy only once its job has made it.
     */
    async rendition(q: {
      linkId: string;
      hash: string;
      /** The link's settings as the caller's access check read them (the read cache): no query when cached. */
      settings?: Watermark;
      visitor: string;
      directory: string;
      file: string;
      mime: string;
    }): Promise<Served> {
      const w =
        q.settings && watermarkHash(q.settings) === q.hash ? q.settings : (await settings(q.linkId, q.hash)).watermark;
      const title = w.kind === "text" && w.text.includes("{link}") ? await titleOf(q.linkId, q.hash) : "";
      const { mark, variant } = markFor(w, title, q.visitor);
      const key = keyOf(q.linkId, q.hash, variant, q.directory, q.file);
      const type = (t: string) => ({ key, type: t });
      // A copy is written whole (the store's writes are atomic): there, it is ready; a video's once its job wrote it.
      if (await store.stat(key)) return type(q.file.endsWith(".mp4") ? "video/mp4" : storedType(q.file, q.mime));
      if (q.file.endsWith(".mp4")) throw notFound(WATERMARK_FAILED);
      if (q.file === "original" && !isStampable(q.mime)) return { key: `media/${q.directory}/original`, type: q.mime };
      // Past the bound, a visitor's copy is made for the request and not kept.
      if ((await watermarksRepo.count(db, q.linkId, q.hash)) >= WATERMARK_CACHE_MAX) {
        const made = await render(q.directory, q.file, q.mime, mark);
        if (!made) throw notFound();
        return made;
      }
      return watermarksRepo.withLock(db, key, async () => {
        if (await store.stat(key)) return type(storedType(q.file, q.mime));
        const made = await render(q.directory, q.file, q.mime, mark);
        if (!made || !("bytes" in made)) throw notFound();
        await store.putStream(key, Readable.from(made.bytes));
        await watermarksRepo.record(db, { key, link_id: q.linkId, hash: q.hash, status: "ready" });
        return type(made.type);
      });
    },

    /** A visitor's video: its watermarked copy's state, starting the job that makes it when there is none. */
    async video(q: { linkId: string; hash: string; visitor: string; directory: string }): Promise<WatermarkedVideo> {
      const link = await settings(q.linkId, q.hash);
      const { variant } = markFor(link.watermark, link.title, q.visitor);
      const key = keyOf(q.linkId, q.hash, variant, q.directory, "web.mp4");
      const row = await watermarksRepo.get(db, key);
      if (row?.status === "ready") return { state: "ready", progress: 100, video_url: null, error: null };
      if (row?.status === "preparing")
        return { state: "preparing", progress: row.progress, video_url: null, error: null };
      if (row?.status === "failed") return { state: "failed", progress: 0, video_url: null, error: row.error };
      if ((await watermarksRepo.count(db, q.linkId, q.hash)) >= WATERMARK_CACHE_MAX)
        return { state: "failed", progress: 0, video_url: null, error: "Too many watermarked copies of this link." };
      if (await watermarksRepo.claimVideo(db, { key, link_id: q.linkId, hash: q.hash }))
        await deps.enqueueVideo({ key, link_id: q.linkId, hash: q.hash, directory: q.directory, visitor: q.visitor });
      return { state: "preparing", progress: 0, video_url: null, error: null };
    },

    /** The `watermark-video` job: burns the mark into web.mp4 (safe to run twice: the last write wins). */
    async burn(job: WatermarkVideoPayload): Promise<void> {
      const link = await watermarksRepo.link(db, job.link_id);
      if (!link?.watermark || link.watermark_hash !== job.hash) return; // settings changed: the purge takes the row
      const { mark } = markFor(link.watermark, link.title, job.visitor);
      const src = `media/${job.directory}/web.mp4`;
      const stat = await store.stat(src);
      const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-wmv-"));
      try {
        if (!stat) throw new Error("The video has no web copy");
        const input = store.localPath(src) ?? path.join(dir, "web.mp4");
        if (input.startsWith(dir)) await copyToLocalFile(store, src, input, stat.size);
        const info = await probeVideo(input);
        const output = path.join(dir, "out.mp4");
        await watermarkVideo({
          input,
          output,
          width: info.width,
          height: info.height,
          duration: info.duration,
          mark,
          timeoutMs: transcodeTimeoutMs(info.duration),
          onProgress: (p) => void watermarksRepo.progress(db, job.key, p).catch(() => undefined),
        });
        await store.putFile(job.key, output);
        await watermarksRepo.finish(db, job.key, { status: "ready" });
      } catch (err) {
        deps.log.warn({ err: { message: (err as Error).message }, key: job.key }, "watermarked video failed");
        await watermarksRepo.finish(db, job.key, { status: "failed", error: WATERMARK_FAILED });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },

    /** Deletes the renditions of settings no longer in force (or of deleted links), blob first. */
    async purge(): Promise<number> {
      let removed = 0;
      for (;;) {
        const keys = await watermarksRepo.stale(db, 500);
        if (keys.length === 0) return removed;
        for (const key of keys) await store.delete(key);
        await watermarksRepo.remove(db, keys);
        removed += keys.length;
      }
    },
  };

  function isStampable(mime: string) {
    return mime === "application/pdf" || STAMPABLE_IMAGES.has(mime);
  }
  function storedType(file: string, mime: string) {
    if (file !== "original") return "image/jpeg";
    return mime === "application/pdf" ? mime : `image/${stampFormat(mime)}`;
  }
}
export type Watermarks = ReturnType<typeof createWatermarks>;
