import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Logger } from "pino";
import type { Renditions } from "../../db/types.ts";
import { sharpReadable } from "../../media/image.ts";
import { type BlobStore, mediaKey } from "../../storage/blob-store.ts";
import { copyToLocalFile } from "../../storage/local-copy.ts";
import type { AssetLifecycle } from "../assets/index.ts";
import {
  OCR_IMAGE_SIDE,
  OCR_MAX_PAGES,
  readText,
  TEXT_FAILED,
  type TextOutcome,
  type TextReader,
} from "./read-text.ts";
import type { VisionRecords } from "./vision.ts";

/**
 * Text in images and document pages (issue 16) is read after the asset is COMPLETED, by the
 * `read-text` job, not inside the pipeline: OCR can take seconds per picture (a grainy 12 MP photo
 * runs into its 3 s quick-look limit), and inline it held a processing slot for that long, halving
 * the pipeline's throughput (bench/thumbnails: 0.75 → 0.34 img/s). Its thread runs at a lower CPU
 * priority (media/ocr-worker.ts), so processing keeps the cores and the text follows when they are free.
 */
export interface TextJobDeps {
  assets: AssetLifecycle;
  store: BlobStore;
  log: Logger;
  /** null when OCR is off or its engine could not load. */
  ocr: () => Promise<TextReader | null>;
  /** Where the outcome is kept (asset_vision). */
  records: Pick<VisionRecords, "saveText" | "publishText">;
  /** Evaluates the AI actions again, between the text kept and the text said to be read (ai-actions). */
  afterText?: (workspaceId: string, assetId: string) => Promise<void>;
  /** The quick look's CPU budget on the first try (OCR_CPU_BUDGET_MS); each retry has twice the last (a noise-like photo costs 3 + 6 + 12 s of CPU before the last, unbudgeted try). */
  cpuBudgetMs: number;
  /** Tries after the first (the job's retry limit): the last one reads without a CPU budget. */
  retries: number;
}

/** The quick look's CPU budget on try `attempt` (0 = first); null on the last try. */
export function cpuBudgetFor(deps: Pick<TextJobDeps, "cpuBudgetMs" | "retries">, attempt: number): number | null {
  return attempt >= deps.retries ? null : deps.cpuBudgetMs * 2 ** attempt;
}

interface SourceRow {
  file_type: string | null;
  storage_key: string | null;
  directory: string | null;
  renditions: Renditions;
}

/**
 * What OCR reads of an asset, as store keys: an image's large rendition when it has one (else the
 * original, which sharp reads at full detail for small print); a document's first page images.
 */
export function textSources(row: SourceRow): { keys: string[]; kind: "image" | "pages" } | null {
  if (!row.directory || !row.storage_key) return null;
  const dir = row.directory;
  if (row.file_type === "IMAGE")
    return { keys: [row.renditions.large ? mediaKey(dir, row.renditions.large) : row.storage_key], kind: "image" };
  const pages = row.renditions.pages ?? [];
  if (row.file_type === "DOCUMENT" && pages.length)
    return { keys: pages.slice(0, OCR_MAX_PAGES).map((p) => mediaKey(dir, p.file)), kind: "pages" };
  return null;
}

/**
 * Keeps the text, then has the actions evaluated again, and only then says it is read (it stays
 * `pending` meanwhile), so whoever sees the text read also sees the values it set.
 */
async function keepText(deps: TextJobDeps, workspaceId: string, assetId: string, text: TextOutcome) {
  if (!deps.afterText) return deps.records.saveText(workspaceId, assetId, text);
  await deps.records.saveText(workspaceId, assetId, text, true);
  try {
    await deps.afterText(workspaceId, assetId);
  } finally {
    await deps.records.publishText(assetId, text.status);
  }
}

/**
 * The `read-text` job: safe to run twice (the outcome is overwritten, the actions evaluated again).
 * A read over its budget throws TextLater: nothing is recorded (the text stays pending) and the job
 * engine runs it again after a backoff, with a larger budget.
 */
export async function readAssetText(deps: TextJobDeps, assetId: string, attempt = 0): Promise<void> {
  const row = await deps.assets.byId(assetId);
  if (!row || row.deleted_at || row.status !== "COMPLETED") return;
  const source = textSources(row);
  if (!source) return;
  const log = deps.log.child({ assetId });
  const reader = await deps.ocr();
  if (!reader) {
    await keepText(deps, row.workspace_id, assetId, { status: "failed", error: TEXT_FAILED });
    return;
  }
  const work = await mkdtemp(path.join(os.tmpdir(), "hangar-text-"));
  try {
    const files: string[] = [];
    for (const [i, key] of source.keys.entries()) {
      const local = deps.store.localPath(key);
      if (local) files.push(local);
      else {
        // S3: each picture comes down to the work directory, bounded by the size the store reports.
        const stat = await deps.store.stat(key);
        if (!stat) continue;
        const file = path.join(work, `source-${i}`);
        await copyToLocalFile(deps.store, key, file, stat.size);
        files.push(file);
      }
    }
    // An image read from its original: an HEIC one as a picture sharp can read.
    if (source.kind === "image" && files[0])
      files[0] = await sharpReadable(files[0], path.join(work, "decoded.png"), OCR_IMAGE_SIDE);
    const outcome = files.length
      ? await readText(reader, files, source.kind, log, cpuBudgetFor(deps, attempt))
      : ({ status: "failed", error: TEXT_FAILED } as const);
    await keepText(deps, row.workspace_id, assetId, outcome);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
