import type { AiActionKind, AiEvidence } from "@hangar/contract";
import type { ColumnType, Generated } from "kysely";

/**
 * The tables of migration 20261125-0010 (and 20261127-0002): AI actions, their results and runs
 * (modules/ai-actions), and what the pipeline saw of an asset (asset_vision, modules/processing).
 * A jsonb column reads as its value and is written as JSON text: node-pg would send a JS array as a
 * PostgreSQL array.
 */
type Json<T> = ColumnType<T, string, string>;
type JsonWithDefault<T> = ColumnType<T, string | undefined, string>;

/** An object the detector saw; `box` (fractions of the picture) when the detector gave one. */
export interface VisionObject {
  label: string;
  confidence: number;
  box: number[] | null;
}
/** A word OCR read, its box as fractions of its page. */
export interface OcrWord {
  text: string;
  confidence: number;
  box: number[];
  page: number;
}
export type OcrStatus = "none" | "pending" | "done" | "failed";
export type AiRunStatus = "queued" | "running" | "done" | "failed";

export interface AiActionsTable {
  id: Generated<string>;
  workspace_id: string;
  field_id: string;
  option_id: string;
  kind: AiActionKind;
  config: Json<Record<string, unknown>>;
  created_at: Generated<Date>;
}
export interface AiActionResultsTable {
  id: Generated<string>;
  workspace_id: string;
  asset_id: string;
  action_id: string;
  matched: boolean;
  confidence: number;
  evidence: JsonWithDefault<AiEvidence>;
  set_value: Generated<boolean>;
  evaluated_at: Generated<Date>;
}
export interface AiActionRunsTable {
  id: Generated<string>;
  workspace_id: string;
  field_id: string | null;
  status: Generated<AiRunStatus>;
  total: Generated<number>;
  processed: Generated<number>;
  changes: Generated<number>;
  error: string | null;
  created_by: string | null;
  created_at: Generated<Date>;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
export interface AssetVisionTable {
  asset_id: string;
  workspace_id: string;
  objects: JsonWithDefault<VisionObject[]>;
  ocr_status: Generated<OcrStatus>;
  ocr_text: Generated<string>;
  ocr_words: JsonWithDefault<OcrWord[]>;
  ocr_error: string | null;
  ocr_ms: number | null;
  updated_at: Generated<Date>;
}
