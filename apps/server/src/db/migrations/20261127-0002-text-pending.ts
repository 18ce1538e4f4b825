import { type Kysely, sql } from "kysely";

/**
 * OCR leaves the pipeline for a job of its own (`read-text`, after COMPLETED, at low priority):
 * an asset's text is `pending` between the two.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations never import app types (docs/architecture.md §3)
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE asset_vision DROP CONSTRAINT IF EXISTS asset_vision_ocr_status_check`.execute(db);
  await sql`ALTER TABLE asset_vision ADD CONSTRAINT asset_vision_ocr_status_check
            CHECK (ocr_status IN ('none', 'pending', 'done', 'failed'))`.execute(db);
}
