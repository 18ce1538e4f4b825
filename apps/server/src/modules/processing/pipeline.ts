import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Logger } from "pino";
import type { Renditions } from "../../db/types.ts";
import { convertOffice, OFFICE_EXTENSIONS, renderPdf } from "../../media/document.ts";
import { ImageError, needsLargeRendition, renderLarge } from "../../media/image.ts";
import { analyseImage } from "../../media/image-analysis.ts";
import { MediaError } from "../../media/limits.ts";
import { renditionHashes } from "../../media/phash.ts";
import { sniffFile } from "../../media/sniff.ts";
import { probeVideo, transcodeVideo, videoPoster } from "../../media/video.ts";
import { type BlobStore, mediaKey } from "../../storage/blob-store.ts";
import { copyToLocalFile } from "../../storage/local-copy.ts";
import type { AssetLifecycle, VersionWork } from "../assets/index.ts";
import { textSources } from "./text-job.ts";
import type { Vision, VisionRecords } from "./vision.ts";

export type { TextReader } from "./read-text.ts";

export interface Tagger {
  tag(imagePath: string): Promise<Array<{ label: string; confidence: number; type: string; box?: number[] | null }>>;
  close?(): Promise<void>;
}

export interface PipelineDeps {
  /** The asset rows are the assets feature's: read and written through its service. */
  assets: AssetLifecycle;
  store: BlobStore;
  log: Logger;
  /** null when AI tags are off. */
  tagger: () => Promise<Tagger | null>;
  /** Queues the asset's OCR after it is COMPLETED (text-job.ts); absent when OCR is off. */
  readTextLater?: (assetId: string) => Promise<void>;
  /** Queues looking for faces in a COMPLETED current version (issue 32); absent when faces are off. */
  findFacesLater?: (versionId: string) => Promise<void>;
  /** Where what the pipeline saw is kept (asset_vision), before the asset is COMPLETED. */
  records: Pick<VisionRecords, "save">;
  /** Called once the asset's facts are stored, before it is COMPLETED (AI actions); a failure is only logged. */
  afterProcessed?: (workspaceId: string, assetId: string) => Promise<void>;
  /** After this many tries a transient failure becomes a kept error instead of another retry. */
  maxAttempts: number;
  /**
   * Keeps a version's perceptual hashes (the similar module's), before it is COMPLETED; absent: none
   * computed. A failure to hash is only logged.
   */
  saveHashes?: (workspaceId: string, versionId: string, hashes: bigint[]) => Promise<void>;
  /** Told of every asset that ends in error (metrics). */
  onFailure?: (reason: string) => void;
}

/** Failures that retrying cannot fix: the file itself is the problem. */
export function permanentReason(err: unknown): string | null {
  if (err instanceof MediaError) return err.reason;
  if (err instanceof ImageError) return err.message;
  return null;
}

/** Renditions written to the store at once. */
const PUT_PARALLEL = 8;

async function walk(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(p, base)));
    else out.push(path.relative(base, p));
  }
  return out;
}

/**
 * Processing is a feature of its own: this orchestrates the pure steps of media/ (bytes in, facts and
 * renditions out) around the asset's row and its blobs. The `process-asset` job (docs/architecture.md §6): sniff the real type, then per type metadata and
 * renditions under media/{directory}/, colours, quality, AI tags; COMPLETED, or `error` with the
 * reason kept. Safe to run twice: everything is recomputed and overwritten.
 *
 * What is processed is one version of the asset (issue 29; by default its first, whose id is the
 * asset's), in the version's own directory: a newer version is written to its own row only, and
 * becomes the asset's current one when it is COMPLETED (assets/versions-lifecycle.ts).
 */
export async function processAsset(deps: PipelineDeps, jobAssetId: string, versionId = jobAssetId): Promise<void> {
  const { store, log } = deps;
  const version = await deps.assets.versionWork(versionId);
  const row = version?.row;
  if (!version || !row || row.deleted_at || row.status !== "processing" || !row.storage_key || !row.directory) return;
  // The version's asset now (a version stacked onto another asset since the job was sent has moved).
  const assetId = version.assetId;
  const attempt = await version.bumpAttempts();
  const work = await mkdtemp(path.join(os.tmpdir(), "hangar-media-"));
  const outDir = path.join(work, "out");
  await mkdir(outDir, { recursive: true });
  let original = store.localPath(row.storage_key);
  /** Known once sniffed: an asset that fails afterwards still says what it is (a damaged PDF is a DOCUMENT). */
  let typed: Pick<Parameters<VersionWork["update"]>[0], "file_type" | "mime_type" | "file_extension"> = {};
  try {
    if (!original) {
      // S3: the original comes down to the work directory (removed below, whatever happens).
      original = path.join(work, "original");
      await copyToLocalFile(store, row.storage_key, original, Number(row.size));
    }
    const sniffed = await sniffFile(original);
    const patch: Parameters<VersionWork["update"]>[0] = {
      file_type: sniffed.fileType,
      mime_type: sniffed.mime,
      file_extension: sniffed.ext || row.file_extension,
    };
    typed = { file_type: patch.file_type, mime_type: patch.mime_type, file_extension: patch.file_extension };
    const renditions: Renditions = {};
    let tagSource: string | null = null;

    if (sniffed.fileType === "IMAGE") {
      const a = await analyseImage(original, outDir);
      Object.assign(renditions, { thumbnail: a.render.thumbnail, grid: a.render.grid });
      if (needsLargeRendition(sniffed.mime, Number(row.size), a.render.width, a.render.height)) {
        renditions.large = (await renderLarge(original, outDir)).file;
      }
      tagSource = path.join(outDir, a.render.thumbnail);
      Object.assign(patch, {
        width: a.render.width,
        height: a.render.height,
        placeholder: a.render.placeholder,
        exif: a.exif.raw,
        camera_make: a.exif.make,
        camera_model: a.exif.model,
        lens: a.exif.lens,
        iso: a.exif.iso === null ? null : Math.round(a.exif.iso),
        aperture: a.exif.aperture,
        exposure_time: a.exif.exposure_time,
        focal_length: a.exif.focal_length,
        date_taken: a.exif.taken_at,
        gps_latitude: a.exif.gps?.latitude ?? null,
        gps_longitude: a.exif.gps?.longitude ?? null,
        gps_altitude: a.exif.gps?.altitude ?? null,
        palette: a.colors.palette.map((c) => ({ hex: c.hex, share: c.share, lab: c.lab })),
        simplified_colors: a.colors.simplified,
        quality_contrast: a.quality.contrast,
        quality_sharpness: a.quality.sharpness,
        quality_brightness: a.quality.brightness,
      });
    } else if (sniffed.fileType === "VIDEO") {
      const info = await probeVideo(original);
      // One probe per file (the original's serves every step); web.mp4 and the scrub-bar sprite come
      // out of one decoding pass.
      const web = await transcodeVideo(original, outDir, info, { withSprite: true });
      const poster = await videoPoster(original, outDir, info);
      const sprite = web.sprite;
      Object.assign(renditions, { video: web.file, thumbnail: poster.file });
      if (sprite) renditions.sprite = sprite;
      if (info.fps) renditions.fps = info.fps > 60 ? 30 : info.fps; // web.mp4 caps high frame rates at 30
      tagSource = path.join(outDir, poster.file);
      Object.assign(patch, { width: info.width, height: info.height, duration: info.duration || web.duration });
    } else if (sniffed.fileType === "DOCUMENT") {
      let pdf: string | null = sniffed.mime === "application/pdf" ? original : null;
      if (!pdf && OFFICE_EXTENSIONS.includes(sniffed.ext || row.file_extension)) {
        const conv = await convertOffice(original, work, { extension: sniffed.ext || row.file_extension });
        if ("unavailable" in conv) renditions.preview_unavailable = conv.reason;
        else pdf = conv.pdfPath;
      }
      if (pdf) {
        const r = await renderPdf(pdf, outDir);
        Object.assign(renditions, { thumbnail: r.thumbnail.file, pages: r.pages });
        Object.assign(patch, { page_count: r.pageCount, width: r.thumbnail.width, height: r.thumbnail.height });
      }
    }

    if (deps.saveHashes) {
      const duration = typeof patch.duration === "number" ? patch.duration : null;
      const hashes = await renditionHashes(outDir, renditions, duration).catch((err: Error) => {
        log.warn({ assetId, err: { message: err.message } }, "perceptual hash failed");
        return [];
      });
      await deps.saveHashes(row.workspace_id, versionId, hashes);
    }
    const vision: Vision = { objects: [], ocr: null };
    if (tagSource) {
      const tagger = await deps.tagger();
      if (tagger) {
        // Tags are a bonus: a tagger failure must not fail an otherwise good asset.
        const tags = await tagger.tag(tagSource).catch((err: Error) => {
          log.warn({ assetId, err: { message: err.message } }, "AI tagging failed");
          return null;
        });
        if (tags) {
          await version.replaceAiTags(tags);
          vision.objects = tags.map((t) => ({ label: t.label, confidence: t.confidence, box: t.box ?? null }));
        }
      }
    }
    const readsText = !!deps.readTextLater && !!textSources({ ...row, file_type: sniffed.fileType, renditions });
    if (readsText) vision.ocr = { status: "pending" };
    // Renditions go to their keys before the row says COMPLETED, so a reader never sees a missing file.
    // Several at a time: each write waits for its fsync, and a 200-page document has 201 of them
    // (1.5 s one after another in bench/documents, a quarter of the whole document).
    const files = await walk(outDir).catch(() => [] as string[]);
    let next = 0;
    const putNext = async (): Promise<void> => {
      for (let i = next++; i < files.length; i = next++) {
        const rel = files[i]!;
        await store.putFile(mediaKey(row.directory!, rel.split(path.sep).join("/")), path.join(outDir, rel));
      }
    };
    await Promise.all(Array.from({ length: Math.min(PUT_PARALLEL, files.length) }, putNext));
    const done = { status: "COMPLETED" as const, is_temp: false, error_reason: null, processed_at: new Date() };
    const runActions = () =>
      deps.afterProcessed!(row.workspace_id, assetId).catch((err: Error) =>
        log.warn({ assetId, err: { message: err.message } }, "AI actions after processing failed"),
      );
    let current = version.isCurrent;
    if (current) {
      // What it saw is the pipeline's own record (the asset's, so its current version's); whoever
      // sees the asset done can read it.
      await deps.records.save(row.workspace_id, assetId, vision);
      if (deps.afterProcessed) {
        // Actions read the asset's facts from its row: write them first, and say COMPLETED only after
        // the actions ran, so whoever sees the asset done also sees the values they set.
        await version.update({ ...patch, renditions });
        await runActions();
        await version.update(done);
      } else await version.update({ ...patch, renditions, ...done });
    } else {
      current = await version.update({ ...patch, renditions, ...done });
      // A newer version that just became current: its record and the actions are now the asset's.
      if (current) {
        await deps.records.save(row.workspace_id, assetId, vision);
        if (deps.afterProcessed) await runActions();
      }
    }
    // Text last, in its own job at a lower priority: a slow read never holds up the next asset.
    if (readsText && current) await deps.readTextLater!(assetId);
    if (current && deps.findFacesLater && renditions.thumbnail)
      await deps
        .findFacesLater(versionId)
        .catch((err: Error) => log.warn({ assetId, err: { message: err.message } }, "queueing face detection failed"));
    log.info({ assetId, type: sniffed.fileType, attempt }, "asset processed");
  } catch (err) {
    const reason = permanentReason(err);
    if (reason || attempt >= deps.maxAttempts) {
      log.warn({ assetId, attempt, err: { message: (err as Error).message } }, "asset processing failed");
      const kept = reason ?? "Processing failed after several attempts";
      await version.update({ ...typed, status: "error", error_reason: kept, is_temp: false });
      deps.onFailure?.(kept);
      return;
    }
    throw err; // transient: the job engine retries with backoff
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
