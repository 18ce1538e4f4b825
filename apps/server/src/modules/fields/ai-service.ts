import {
  AI_ACTION_CONFIGS,
  AI_ACTION_KINDS,
  type AiAction,
  type AiActionBody,
  type AiActionKind,
  type AiActionKindInfo,
  type AiActionResult,
  type AiRun,
  type RecognisedText,
} from "@hangar/contract";
import type { Logger } from "pino";
import { z } from "zod";
import type { Db } from "../../db/db.ts";
import { type Access, inWorkspace } from "../../platform/access.ts";
import type { Actor } from "../../platform/actor.ts";
import { invalid, notFound } from "../../platform/errors.ts";
import type { Evaluation } from "./ai-evaluate.ts";
import { createEvaluator, type Evaluator } from "./ai-evaluator.ts";
import { type ActionRow, aiRepo, type LiveAction, type RunRow, type TextInput, type VisionInput } from "./ai-repo.ts";
import { AI } from "./policy.ts";
import { fieldsRepo } from "./repo.ts";
import { valuesRepo } from "./values-repo.ts";

const KIND_TEXT: Record<AiActionKind, [string, string]> = {
  object_detected: ["Object detected", "The object detector saw one of these objects with at least this confidence."],
  text_in_image: ["Text in image", "OCR found these words (or the pattern) in the image or a document page."],
  dominant_color: [
    "Dominant colour",
    "A palette colour covering at least this share is within this CIEDE2000 distance.",
  ],
  image_quality: ["Image quality", "Sharpness, contrast and brightness (0–100) are within these bounds."],
  metadata_matches: [
    "Metadata matches",
    "File name, board path, camera, GPS box or orientation match (all that are given).",
  ],
};
// Defaults are optional on input: the form shows them, the server fills them.
const AVAILABLE: AiActionKindInfo[] = AI_ACTION_KINDS.map((kind) => ({
  kind,
  title: KIND_TEXT[kind][0],
  description: KIND_TEXT[kind][1],
  config_schema: z.toJSONSchema(AI_ACTION_CONFIGS[kind], { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >,
}));

const toAction = (r: ActionRow): AiAction => ({
  id: r.id,
  field_id: r.field_id,
  option_id: r.option_id,
  kind: r.kind,
  config: r.config,
  created_at: r.created_at.toISOString(),
});
const toRun = (r: RunRow): AiRun => ({
  id: r.id,
  status: r.status,
  field_id: r.field_id,
  total: r.total,
  processed: r.processed,
  changes: r.changes,
  error: r.error,
  created_at: r.created_at.toISOString(),
  finished_at: r.finished_at?.toISOString() ?? null,
});

/** Actions on field options, their evaluation, and runs over every asset (issue 16). SQL in ai-repo.ts. */
export function createAiActionsService(deps: {
  db: Db;
  access: Access;
  log: Logger;
  enqueueRun: (runId: string) => Promise<void>;
  /** Where actions are evaluated (default: a worker thread with the default time budget). */
  evaluator?: Evaluator;
}) {
  const { db, access, log } = deps;
  const evaluator = deps.evaluator ?? createEvaluator();

  async function option(workspaceId: string, fieldId: string, optId: string) {
    const f = await fieldsRepo.get(db, workspaceId, fieldId);
    if (!f) throw notFound("Field not found.");
    const o = await fieldsRepo.option(db, fieldId, optId);
    if (!o) throw notFound("Option not found.");
    if (f.field_type !== "SINGLE_SELECT" && f.field_type !== "MULTI_SELECT")
      throw invalid("AI actions pick options: only select fields have them", [
        { field: "fieldId", message: "Not a select field" },
      ]);
    return { field: f, option: o };
  }

  /**
   * Evaluates the workspace's actions (one field's if given) on one asset, stores the results and
   * sets values by the rules in the contract (ai-actions.ts). Answers how many values changed.
   */
  async function evaluateAsset(workspaceId: string, assetId: string, fieldId?: string | null): Promise<number> {
    const actions = await aiRepo.live(db, workspaceId, fieldId);
    if (!actions.length) return 0;
    const facts = await aiRepo.facts(db, workspaceId, assetId);
    if (!facts) return 0;
    // Off the event loop, under a time budget (ai-evaluator.ts): a visitor's upload can name the file.
    const evaluations = await evaluator.evaluate(
      actions.map((a) => ({ kind: a.kind, config: a.config })),
      facts,
    );
    const byField = new Map<string, Array<{ a: LiveAction; e: Evaluation }>>();
    actions.forEach((a, i) => {
      byField.set(a.field_id, [...(byField.get(a.field_id) ?? []), { a, e: evaluations[i]! }]);
    });
    let changes = 0;
    const results: Parameters<typeof aiRepo.saveResults>[3] = [];
    for (const [fid, list] of byField) {
      const hits = list
        .filter((x) => x.e.matched)
        .sort((x, y) => y.e.confidence - x.e.confidence || x.a.option_position - y.a.option_position);
      const single = list[0]!.a.field_type === "SINGLE_SELECT";
      const chosen = single ? hits.slice(0, 1) : hits;
      const want = chosen.length
        ? {
            optionId: single ? chosen[0]!.a.option_id : null,
            optionIds: single ? [] : [...new Set(chosen.map((x) => x.a.option_id))],
          }
        : null;
      const r = await valuesRepo.applyByAction(db, workspaceId, fid, assetId, want, chosen[0]?.a.id ?? null);
      if (r.changed) changes++;
      for (const x of list)
        results.push({
          actionId: x.a.id,
          matched: x.e.matched,
          confidence: Math.round(x.e.confidence * 1000) / 1000,
          evidence: x.e.evidence,
          setValue: r.written && chosen.some((c) => c.a.option_id === x.a.option_id && c.e.matched && x.e.matched),
        });
    }
    await aiRepo.saveResults(db, workspaceId, assetId, results);
    return changes > 0 ? 1 : 0;
  }

  return {
    evaluateAsset,
    /** Stops the evaluation thread (the runtime's close). */
    close: () => evaluator.close(),
    async available(actor: Actor, workspaceId: string): Promise<AiActionKindInfo[]> {
      await access.require(actor, AI.view, inWorkspace(workspaceId));
      return AVAILABLE;
    },
    async create(actor: Actor, ws: string, fieldId: string, optId: string, body: z.output<typeof AiActionBody>) {
      await access.require(actor, AI.manage, inWorkspace(ws));
      await option(ws, fieldId, optId);
      const row = await aiRepo.create(db, {
        workspace_id: ws,
        field_id: fieldId,
        option_id: optId,
        kind: body.kind,
        config: body.config as Record<string, unknown>,
      });
      return toAction(row);
    },
    async update(
      actor: Actor,
      ws: string,
      ids: { fieldId: string; optId: string; actionId: string },
      body: z.output<typeof AiActionBody>,
    ) {
      await access.require(actor, AI.manage, inWorkspace(ws));
      await option(ws, ids.fieldId, ids.optId);
      if (!(await aiRepo.get(db, ids.optId, ids.actionId))) throw notFound("AI action not found.");
      return toAction(await aiRepo.update(db, ids.actionId, body.kind, body.config));
    },
    async remove(actor: Actor, ws: string, ids: { fieldId: string; optId: string; actionId: string }) {
      await access.require(actor, AI.manage, inWorkspace(ws));
      await option(ws, ids.fieldId, ids.optId);
      if (!(await aiRepo.get(db, ids.optId, ids.actionId))) throw notFound("AI action not found.");
      await aiRepo.remove(db, ids.actionId);
      return { status: "ok" as const };
    },
    async results(actor: Actor, ws: string, assetId: string): Promise<AiActionResult[]> {
      await access.require(actor, AI.view, inWorkspace(ws));
      if (!(await valuesRepo.liveAssets(db, ws, [assetId]))) throw notFound("Asset not found.");
      return (await aiRepo.results(db, ws, assetId)).map((r) => ({
        ...r,
        content_type: "asset" as const,
        object_id: assetId,
        evaluated_at: r.evaluated_at.toISOString(),
      }));
    },
    async recognisedText(actor: Actor, ws: string, assetId: string): Promise<RecognisedText> {
      await access.require(actor, AI.view, inWorkspace(ws));
      if (!(await valuesRepo.liveAssets(db, ws, [assetId]))) throw notFound("Asset not found.");
      const r = await aiRepo.recognisedText(db, ws, assetId);
      return {
        status: r?.ocr_status ?? "none",
        text: r?.ocr_text ?? "",
        words: r?.ocr_words ?? [],
        error: r?.ocr_error ?? null,
      };
    },
    async startRun(actor: Actor, ws: string, fieldId: string | undefined): Promise<AiRun> {
      await access.require(actor, AI.manage, inWorkspace(ws));
      if (fieldId && !(await fieldsRepo.get(db, ws, fieldId))) throw notFound("Field not found.");
      const run = await aiRepo.createRun(db, ws, fieldId ?? null, actor.kind === "user" ? actor.userId : null);
      await deps.enqueueRun(run.id);
      return toRun(run);
    },
    async run(actor: Actor, ws: string, runId: string): Promise<AiRun> {
      await access.require(actor, AI.view, inWorkspace(ws));
      const run = await aiRepo.run(db, runId, ws);
      if (!run) throw notFound("Run not found.");
      return toRun(run);
    },
    /** The `run-ai-actions` job: every processed asset in id order, progress saved every page. */
    async executeRun(runId: string) {
      const run = await aiRepo.run(db, runId);
      if (!run || run.status === "done" || run.status === "failed") return;
      await aiRepo.updateRun(db, runId, { status: "running", processed: 0, changes: 0 });
      let [processed, changes, after] = [0, 0, null as string | null];
      try {
        for (;;) {
          const ids = await aiRepo.assetPage(db, run.workspace_id, after, 200);
          if (!ids.length) break;
          for (const id of ids) changes += await evaluateAsset(run.workspace_id, id, run.field_id);
          processed += ids.length;
          after = ids[ids.length - 1]!;
          await aiRepo.updateRun(db, runId, { processed, changes });
        }
        await aiRepo.updateRun(db, runId, { status: "done", processed, changes, total: Math.max(processed, 0) });
      } catch (err) {
        log.warn({ runId, err: { message: (err as Error).message } }, "AI actions run failed");
        await aiRepo.updateRun(db, runId, { status: "failed", error: "The run stopped: see the server log" });
      }
    },
    /** After the pipeline finished an asset: keep what it saw, then evaluate the actions. */
    async afterProcessed(workspaceId: string, assetId: string, vision: VisionInput) {
      await aiRepo.saveVision(db, workspaceId, assetId, vision);
      await evaluateAsset(workspaceId, assetId);
    },
    /**
     * After the text was read (the `read-text` job): keep it, evaluate the actions again, and only then
     * say it is read, so whoever sees the text read also sees the values it set.
     */
    async afterText(workspaceId: string, assetId: string, text: TextInput) {
      await aiRepo.saveText(db, workspaceId, assetId, text, true);
      try {
        await evaluateAsset(workspaceId, assetId);
      } finally {
        await aiRepo.textStatus(db, assetId, text.status);
      }
    },
  };
}
export type AiActionsService = ReturnType<typeof createAiActionsService>;
