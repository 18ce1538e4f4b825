import type { AiActionKind, AiEvidence } from "@hangar/contract";
import { sql } from "kysely";
import type { Db } from "../../db/db.ts";
import type { AssetFacts } from "./ai-evaluate.ts";

export interface ActionRow {
  id: string;
  workspace_id: string;
  field_id: string;
  option_id: string;
  kind: AiActionKind;
  config: Record<string, unknown>;
  created_at: Date;
}

/** An action with what evaluation needs of its field and option. */
export interface LiveAction extends ActionRow {
  field_type: "SINGLE_SELECT" | "MULTI_SELECT";
  option_position: number;
  option_label: string;
}

export interface RunRow {
  id: string;
  workspace_id: string;
  field_id: string | null;
  status: "queued" | "running" | "done" | "failed";
  total: number;
  processed: number;
  changes: number;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export interface VisionInput {
  objects: Array<{ label: string; confidence: number; box: number[] | null }>;
  ocr: TextInput | { status: "pending" } | null;
}

/** What OCR made of an asset: its words, or why it could not read them. */
export type TextInput =
  | { status: "done"; text: string; words: AssetFacts["words"]; ms: number }
  | { status: "failed"; error: string };

const textColumns = (ocr: VisionInput["ocr"]) => ({
  status: ocr?.status ?? "none",
  text: ocr?.status === "done" ? ocr.text : "",
  words: JSON.stringify(ocr?.status === "done" ? ocr.words : []),
  error: ocr?.status === "failed" ? ocr.error : null,
  ms: ocr?.status === "done" ? ocr.ms : null,
});

/** SQL of AI actions, their results and runs, and what the pipeline saw (asset_vision). */
export const aiRepo = {
  async create(db: Db, a: Omit<ActionRow, "id" | "created_at">): Promise<ActionRow> {
    const r = await sql<ActionRow>`INSERT INTO ai_actions (workspace_id, field_id, option_id, kind, config)
      VALUES (${a.workspace_id}, ${a.field_id}, ${a.option_id}, ${a.kind}, ${JSON.stringify(a.config)}::jsonb)
      RETURNING *`.execute(db);
    return r.rows[0]!;
  },
  async get(db: Db, optionId: string, actionId: string): Promise<ActionRow | null> {
    const r = await sql<ActionRow>`SELECT * FROM ai_actions WHERE id = ${actionId} AND option_id = ${optionId}`.execute(
      db,
    );
    return r.rows[0] ?? null;
  },
  async update(db: Db, actionId: string, kind: AiActionKind, config: unknown): Promise<ActionRow> {
    const r = await sql<ActionRow>`UPDATE ai_actions SET kind = ${kind}, config = ${JSON.stringify(config)}::jsonb
      WHERE id = ${actionId} RETURNING *`.execute(db);
    return r.rows[0]!;
  },
  async remove(db: Db, actionId: string) {
    await sql`DELETE FROM ai_actions WHERE id = ${actionId}`.execute(db);
  },
  /** Every action of the workspace's select fields (one field if given), in field and option order. */
  async live(db: Db, workspaceId: string, fieldId?: string | null): Promise<LiveAction[]> {
    const only = fieldId ? sql`AND a.field_id = ${fieldId}` : sql``;
    const r = await sql<LiveAction>`
      SELECT a.*, f.field_type, o.position AS option_position, o.label AS option_label
      FROM ai_actions a JOIN custom_fields f ON f.id = a.field_id JOIN field_options o ON o.id = a.option_id
      WHERE a.workspace_id = ${workspaceId} AND f.field_type IN ('SINGLE_SELECT', 'MULTI_SELECT') ${only}
      ORDER BY f.position, o.position, a.created_at`.execute(db);
    return r.rows;
  },
  /** What the actions read of one asset; null when it is not a live asset of the workspace. */
  async facts(db: Db, workspaceId: string, assetId: string): Promise<AssetFacts | null> {
    const r = await sql<AssetFacts & { vision_objects: AssetFacts["objects"] | null }>`
      SELECT a.id, a.name, a.width, a.height, a.camera_make, a.camera_model, a.gps_latitude, a.gps_longitude, a.palette,
        json_build_object('sharpness', a.quality_sharpness, 'contrast', a.quality_contrast, 'brightness', a.quality_brightness) AS quality,
        v.objects AS vision_objects,
        coalesce(v.ocr_words, '[]') AS words, coalesce(v.ocr_status = 'pending' AND v.ocr_ms IS NULL AND v.ocr_error IS NULL, false) AS text_pending,
        coalesce((SELECT json_agg(json_build_object('label', t.label, 'confidence', t.confidence, 'box', null)
                  ORDER BY t.confidence DESC) FROM ai_tags t WHERE t.asset_id = a.id), '[]') AS objects,
        coalesce((
          WITH RECURSIVE up AS (
            SELECT ba.board_id AS start, b.id, b.parent_id, b.name::text AS path
            FROM board_assets ba JOIN boards b ON b.id = ba.board_id
            WHERE ba.asset_id = a.id AND b.deleted_at IS NULL
            UNION ALL
            SELECT up.start, p.id, p.parent_id, p.name || '/' || up.path FROM up JOIN boards p ON p.id = up.parent_id
          ) SELECT array_agg(path) FROM up WHERE parent_id IS NULL), '{}') AS board_paths
      FROM assets a LEFT JOIN asset_vision v ON v.asset_id = a.id
      WHERE a.id = ${assetId} AND a.workspace_id = ${workspaceId} AND a.deleted_at IS NULL`.execute(db);
    const row = r.rows[0];
    if (!row) return null;
    // Boxes come from the pipeline's own record; ai_tags (labels only) serve assets processed before it.
    const { vision_objects, ...facts } = row;
    return { ...facts, objects: vision_objects?.length ? vision_objects : facts.objects };
  },
  async saveVision(db: Db, workspaceId: string, assetId: string, v: VisionInput) {
    const t = textColumns(v.ocr);
    await sql`INSERT INTO asset_vision (asset_id, workspace_id, objects, ocr_status, ocr_text, ocr_words, ocr_error, ocr_ms)
      VALUES (${assetId}, ${workspaceId}, ${JSON.stringify(v.objects)}::jsonb, ${t.status}, ${t.text},
        ${t.words}::jsonb, ${t.error}, ${t.ms})
      ON CONFLICT (asset_id) DO UPDATE SET objects = excluded.objects, ocr_status = excluded.ocr_status,
        ocr_text = excluded.ocr_text, ocr_words = excluded.ocr_words, ocr_error = excluded.ocr_error,
        ocr_ms = excluded.ocr_ms, updated_at = now()`.execute(db);
  },
  /**
   * The text read after processing: only the OCR columns (what the pipeline saw stays). Staged: still
   * `pending` (the actions read the words; `textStatus` publishes it once they ran).
   */
  async saveText(db: Db, workspaceId: string, assetId: string, ocr: TextInput, staged = false) {
    const t = textColumns(ocr);
    await sql`INSERT INTO asset_vision (asset_id, workspace_id, ocr_status, ocr_text, ocr_words, ocr_error, ocr_ms)
      VALUES (${assetId}, ${workspaceId}, ${staged ? "pending" : t.status}, ${t.text}, ${t.words}::jsonb, ${t.error}, ${t.ms})
      ON CONFLICT (asset_id) DO UPDATE SET ocr_status = excluded.ocr_status, ocr_text = excluded.ocr_text,
        ocr_words = excluded.ocr_words, ocr_error = excluded.ocr_error, ocr_ms = excluded.ocr_ms,
        updated_at = now()`.execute(db);
  },
  async textStatus(db: Db, assetId: string, status: TextInput["status"]) {
    await sql`UPDATE asset_vision SET ocr_status = ${status}, updated_at = now() WHERE asset_id = ${assetId}`.execute(
      db,
    );
  },
  async recognisedText(db: Db, workspaceId: string, assetId: string) {
    const r = await sql<{
      ocr_status: "none" | "pending" | "done" | "failed";
      ocr_text: string;
      ocr_words: AssetFacts["words"];
      ocr_error: string | null;
    }>`SELECT ocr_status, ocr_text, ocr_words, ocr_error FROM asset_vision
      WHERE asset_id = ${assetId} AND workspace_id = ${workspaceId}`.execute(db);
    return r.rows[0] ?? null;
  },
  /** Replaces the asset's results for these actions. */
  async saveResults(
    db: Db,
    workspaceId: string,
    assetId: string,
    results: Array<{ actionId: string; matched: boolean; confidence: number; evidence: AiEvidence; setValue: boolean }>,
  ) {
    if (!results.length) return;
    await sql`INSERT INTO ai_action_results (workspace_id, asset_id, action_id, matched, confidence, evidence, set_value)
      SELECT ${workspaceId}::uuid, ${assetId}::uuid, r.action_id, r.matched, r.confidence, r.evidence, r.set_value
      FROM jsonb_to_recordset(${JSON.stringify(
        results.map((x) => ({
          action_id: x.actionId,
          matched: x.matched,
          confidence: x.confidence,
          evidence: x.evidence,
          set_value: x.setValue,
        })),
      )}::jsonb) AS r(action_id uuid, matched boolean, confidence real, evidence jsonb, set_value boolean)
      ON CONFLICT (asset_id, action_id) DO UPDATE SET matched = excluded.matched, confidence = excluded.confidence,
        evidence = excluded.evidence, set_value = excluded.set_value, evaluated_at = now()`.execute(db);
  },
  async results(db: Db, workspaceId: string, assetId: string) {
    const r = await sql<{
      id: string;
      action_id: string;
      field_id: string;
      option_id: string;
      option_label: string;
      kind: AiActionKind;
      matched: boolean;
      confidence: number;
      evidence: AiEvidence;
      set_value: boolean;
      evaluated_at: Date;
    }>`SELECT r.id, r.action_id, a.field_id, a.option_id, o.label AS option_label, a.kind, r.matched, r.confidence,
        r.evidence, r.set_value, r.evaluated_at
      FROM ai_action_results r JOIN ai_actions a ON a.id = r.action_id JOIN field_options o ON o.id = a.option_id
      JOIN custom_fields f ON f.id = a.field_id
      WHERE r.asset_id = ${assetId} AND r.workspace_id = ${workspaceId}
      ORDER BY f.position, o.position, a.created_at`.execute(db);
    return r.rows;
  },
  async createRun(db: Db, workspaceId: string, fieldId: string | null, by: string | null): Promise<RunRow> {
    const r = await sql<RunRow>`INSERT INTO ai_action_runs (workspace_id, field_id, created_by, total)
      VALUES (${workspaceId}, ${fieldId}, ${by}, (SELECT count(*) FROM assets
        WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL AND status = 'COMPLETED'))
      RETURNING *`.execute(db);
    return r.rows[0]!;
  },
  async run(db: Db, runId: string, workspaceId?: string): Promise<RunRow | null> {
    const ws = workspaceId ? sql`AND workspace_id = ${workspaceId}` : sql``;
    const r = await sql<RunRow>`SELECT * FROM ai_action_runs WHERE id = ${runId} ${ws}`.execute(db);
    return r.rows[0] ?? null;
  },
  async updateRun(
    db: Db,
    runId: string,
    patch: Partial<Pick<RunRow, "status" | "processed" | "changes" | "error" | "total">>,
  ) {
    const done = patch.status === "done" || patch.status === "failed";
    await sql`UPDATE ai_action_runs SET
        status = coalesce(${patch.status ?? null}, status), processed = coalesce(${patch.processed ?? null}::int, processed),
        changes = coalesce(${patch.changes ?? null}::int, changes), total = coalesce(${patch.total ?? null}::int, total),
        error = coalesce(${patch.error ?? null}, error), finished_at = CASE WHEN ${done} THEN now() ELSE finished_at END
      WHERE id = ${runId}`.execute(db);
  },
  /** The next page of live, processed asset ids after `after` (keyset, id order). */
  async assetPage(db: Db, workspaceId: string, after: string | null, limit: number): Promise<string[]> {
    const from = after ? sql`AND id > ${after}` : sql``;
    const r = await sql<{ id: string }>`SELECT id FROM assets
      WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL AND status = 'COMPLETED' ${from}
      ORDER BY id LIMIT ${limit}`.execute(db);
    return r.rows.map((x) => x.id);
  },
};
