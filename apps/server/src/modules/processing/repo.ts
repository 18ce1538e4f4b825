import { jsonArrayFrom } from "kysely/helpers/postgres";
import type { Db } from "../../db/db.ts";
import type { OcrStatus, VisionObject } from "../../db/types-ai.ts";
import type { TextOutcome } from "./read-text.ts";

/** OCR's columns of asset_vision for an outcome (none yet, pending, read, or failed). */
const textColumns = (ocr: TextOutcome | { status: "pending" } | null) => ({
  ocr_status: (ocr?.status ?? "none") as OcrStatus,
  ocr_text: ocr?.status === "done" ? ocr.text : "",
  ocr_words: JSON.stringify(ocr?.status === "done" ? ocr.words : []),
  ocr_error: ocr?.status === "failed" ? ocr.error : null,
  ocr_ms: ocr?.status === "done" ? ocr.ms : null,
});

/**
 * SQL of what the pipeline saw of an asset (asset_vision: object boxes, OCR words and text) and of
 * the facts it extracted onto the asset's row (dimensions, EXIF, colours, quality), as readers get them.
 */
export const visionRepo = {
  async save(
    db: Db,
    workspaceId: string,
    assetId: string,
    objects: VisionObject[],
    ocr: TextOutcome | { status: "pending" } | null,
  ) {
    await db
      .insertInto("asset_vision")
      .values({ asset_id: assetId, workspace_id: workspaceId, objects: JSON.stringify(objects), ...textColumns(ocr) })
      .onConflict((oc) =>
        oc.column("asset_id").doUpdateSet((eb) => ({
          objects: eb.ref("excluded.objects"),
          ocr_status: eb.ref("excluded.ocr_status"),
          ocr_text: eb.ref("excluded.ocr_text"),
          ocr_words: eb.ref("excluded.ocr_words"),
          ocr_error: eb.ref("excluded.ocr_error"),
          ocr_ms: eb.ref("excluded.ocr_ms"),
          updated_at: eb.fn<Date>("now"),
        })),
      )
      .execute();
  },
  /** Only the OCR columns (what the pipeline saw stays); `staged` keeps the status `pending`. */
  async saveText(db: Db, workspaceId: string, assetId: string, ocr: TextOutcome, staged: boolean) {
    const t = textColumns(ocr);
    await db
      .insertInto("asset_vision")
      .values({ asset_id: assetId, workspace_id: workspaceId, ...t, ocr_status: staged ? "pending" : t.ocr_status })
      .onConflict((oc) =>
        oc.column("asset_id").doUpdateSet((eb) => ({
          ocr_status: eb.ref("excluded.ocr_status"),
          ocr_text: eb.ref("excluded.ocr_text"),
          ocr_words: eb.ref("excluded.ocr_words"),
          ocr_error: eb.ref("excluded.ocr_error"),
          ocr_ms: eb.ref("excluded.ocr_ms"),
          updated_at: eb.fn<Date>("now"),
        })),
      )
      .execute();
  },
  async textStatus(db: Db, assetId: string, status: OcrStatus) {
    await db
      .updateTable("asset_vision")
      .set((eb) => ({ ocr_status: status, updated_at: eb.fn<Date>("now") }))
      .where("asset_id", "=", assetId)
      .execute();
  },
  recognisedText(db: Db, workspaceId: string, assetId: string) {
    return db
      .selectFrom("asset_vision")
      .select(["ocr_status", "ocr_text", "ocr_words", "ocr_error"])
      .where("asset_id", "=", assetId)
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirst();
  },
  /**
   * What the pipeline extracted of these live assets of the workspace, in one statement: the row's
   * facts, its record (asset_vision) and its AI tags (labels only, for assets processed before it).
   */
  extracted(db: Db, workspaceId: string, assetIds: string[]) {
    return db
      .selectFrom("assets as a")
      .leftJoin("asset_vision as v", "v.asset_id", "a.id")
      .select((eb) => [
        "a.id",
        "a.width",
        "a.height",
        "a.camera_make",
        "a.camera_model",
        "a.gps_latitude",
        "a.gps_longitude",
        "a.palette",
        "a.quality_sharpness",
        "a.quality_contrast",
        "a.quality_brightness",
        "v.objects",
        "v.ocr_words",
        "v.ocr_status",
        "v.ocr_ms",
        "v.ocr_error",
        jsonArrayFrom(
          eb
            .selectFrom("ai_tags as t")
            .select(["t.label", "t.confidence"])
            .whereRef("t.asset_id", "=", "a.id")
            .orderBy("t.confidence", "desc"),
        ).as("tags"),
      ])
      .where("a.id", "in", assetIds)
      .where("a.workspace_id", "=", workspaceId)
      .where("a.deleted_at", "is", null)
      .execute();
  },
};
