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
import type { FieldsService } from "../fields/index.ts";
import type { VisionRecords } from "../processing/index.ts";
import { createEvaluator, type Evaluator } from "./ai-evaluator.ts";
import { evaluateAssets } from "./evaluate-assets.ts";
import { AI } from "./policy.ts";
import { type ActionRow, aiRepo, type RunRow } from "./repo.ts";

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

/**
 * Assets a run evaluates at once: what they read is read in one go, so a page holds the facts of this
 * many assets in memory (a document's OCR words can be a few hundred kB).
 */
const RUN_PAGE = 50;

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

/** Actions on field options, their evaluation, and runs over every asset (issue 16). SQL in repo.ts. */
export function createAiActionsService(deps: {
  db: Db;
  access: Access;
  log: Logger;
  /** Fields, options and values are the fields module's: actions hang on its options and set its values. */
  fields: Pick<FieldsService, "fieldOf" | "optionOf" | "applyByActions">;
  /** What the pipeline saw and extracted (processing's record): the actions only read it. */
  vision: Pick<VisionRecords, "extracted" | "recognisedText">;
  enqueueRun: (runId: string) => Promise<void>;
  /** Where actions are evaluated (default: a worker thread with the default time budget). */
  evaluator?: Evaluator;
}) {
  const { db, access, log, fields } = deps;
  const evaluator = deps.evaluator ?? createEvaluator();
  const batch = { db, fields, vision: deps.vision, evaluator };

  async function option(workspaceId: string, fieldId: string, optId: string) {
    const f = await fields.fieldOf(workspaceId, fieldId);
    if (!f) throw notFound("Field not found.");
    const o = await fields.optionOf(fieldId, optId);
    if (!o) throw notFound("Option not found.");
    if (f.field_type !== "SINGLE_SELECT" && f.field_type !== "MULTI_SELECT")
      throw invalid("AI actions pick options: only select fields have them", [
        { field: "fieldId", message: "Not a select field" },
      ]);
    return { field: f, option: o };
  }

  /** Evaluates the actions (one field's if given) on these assets (evaluate-assets.ts); answers how many changed. */
  const evaluate = (workspaceId: string, assetIds: string[], fieldId?: string | null) =>
    evaluateAssets(batch, workspaceId, assetIds, fieldId);

  return {
    evaluate,
    /** The actions on these fields' options, by option (the fields' answers show them). */
    async byOption(workspaceId: string, fieldIds: string[]): Promise<Map<string, AiAction[]>> {
      const byOption = new Map<string, AiAction[]>();
      for (const r of await aiRepo.ofFields(db, workspaceId, fieldIds))
        byOption.set(r.option_id, [...(byOption.get(r.option_id) ?? []), toAction(r)]);
      return byOption;
    },
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
        config: body.config,
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
      if (!(await aiRepo.liveAsset(db, ws, assetId))) throw notFound("Asset not found.");
      return (await aiRepo.results(db, ws, assetId)).map((r) => ({
        ...r,
        content_type: "asset" as const,
        object_id: assetId,
        evaluated_at: r.evaluated_at.toISOString(),
      }));
    },
    /** A member's, or a link visitor's for an asset inside what the link shares (else 404). */
    async recognisedText(actor: Actor, ws: string, assetId: string): Promise<RecognisedText> {
      await access.require(actor, AI.readText, { kind: "asset", workspaceId: ws, assetId });
      if (!(await aiRepo.liveAsset(db, ws, assetId))) throw notFound("Asset not found.");
      return deps.vision.recognisedText(ws, assetId);
    },
    async startRun(actor: Actor, ws: string, fieldId: string | undefined): Promise<AiRun> {
      await access.require(actor, AI.manage, inWorkspace(ws));
      if (fieldId && !(await fields.fieldOf(ws, fieldId))) throw notFound("Field not found.");
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
    /** The `run-ai-actions` job: every processed asset in id order, a page at a time, progress saved every page. */
    async executeRun(runId: string) {
      const run = await aiRepo.run(db, runId);
      if (!run || run.status === "done" || run.status === "failed") return;
      await aiRepo.updateRun(db, runId, { status: "running", processed: 0, changes: 0 });
      let [processed, changes, after] = [0, 0, null as string | null];
      try {
        for (;;) {
          const ids = await aiRepo.assetPage(db, run.workspace_id, after, RUN_PAGE);
          if (!ids.length) break;
          changes += await evaluate(run.workspace_id, ids, run.field_id);
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
    /** Stops the evaluation thread (the runtime's close). */
    close: () => evaluator.close(),
  };
}
export type AiActionsService = ReturnType<typeof createAiActionsService>;
