import type { RecognisedText } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import type { AssetsTable } from "../../db/types.ts";
import type { OcrWord, VisionObject } from "../../db/types-ai.ts";
import type { TextOutcome } from "./read-text.ts";
import { visionRepo } from "./repo.ts";

/** What the pipeline saw of an asset, kept before it is COMPLETED (asset_vision). */
export interface Vision {
  objects: VisionObject[];
  /** `pending` when the `read-text` job will read it after COMPLETED (text-job.ts). */
  ocr: TextOutcome | { status: "pending" } | null;
}

/** What the pipeline extracted of one asset, as readers (the AI actions) take it. */
export interface Extracted {
  width: number | null;
  height: number | null;
  camera_make: string | null;
  camera_model: string | null;
  gps_latitude: number | null;
  gps_longitude: number | null;
  palette: AssetsTable["palette"];
  quality: { sharpness: number | null; contrast: number | null; brightness: number | null };
  /** The detector's objects with their boxes; AI tags (labels only) for assets processed before boxes were kept. */
  objects: VisionObject[];
  words: OcrWord[];
  /** OCR has not read the asset yet (the read-text job follows COMPLETED). */
  text_pending: boolean;
}

/**
 * The pipeline's record of what it saw and extracted (issue 28): processing writes it, every other
 * feature reads it here. SQL in repo.ts.
 */
export function createVisionRecords(deps: { db: Db }) {
  const { db } = deps;
  return {
    save: (workspaceId: string, assetId: string, v: Vision) =>
      visionRepo.save(db, workspaceId, assetId, v.objects, v.ocr),
    /** The text read after processing; `staged` keeps it `pending` until `publishText` (text-job.ts). */
    saveText: (workspaceId: string, assetId: string, text: TextOutcome, staged = false) =>
      visionRepo.saveText(db, workspaceId, assetId, text, staged),
    publishText: (assetId: string, status: TextOutcome["status"]) => visionRepo.textStatus(db, assetId, status),
    async recognisedText(workspaceId: string, assetId: string): Promise<RecognisedText> {
      const r = await visionRepo.recognisedText(db, workspaceId, assetId);
      return {
        status: r?.ocr_status ?? "none",
        text: r?.ocr_text ?? "",
        words: r?.ocr_words ?? [],
        error: r?.ocr_error ?? null,
      };
    },
    /** What was extracted of these live assets of the workspace (absent: not one), read at once. */
    async extracted(workspaceId: string, assetIds: string[]): Promise<Map<string, Extracted>> {
      if (!assetIds.length) return new Map();
      const rows = await visionRepo.extracted(db, workspaceId, assetIds);
      return new Map(
        rows.map((r) => [
          r.id,
          {
            width: r.width,
            height: r.height,
            camera_make: r.camera_make,
            camera_model: r.camera_model,
            gps_latitude: r.gps_latitude,
            gps_longitude: r.gps_longitude,
            palette: r.palette,
            quality: { sharpness: r.quality_sharpness, contrast: r.quality_contrast, brightness: r.quality_brightness },
            objects: r.objects?.length ? r.objects : r.tags.map((t) => ({ ...t, box: null })),
            words: r.ocr_words ?? [],
            text_pending: r.ocr_status === "pending" && r.ocr_ms === null && r.ocr_error === null,
          },
        ]),
      );
    },
  };
}
export type VisionRecords = ReturnType<typeof createVisionRecords>;
