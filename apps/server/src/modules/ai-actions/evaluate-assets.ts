import type { Db } from "../../db/db.ts";
import type { ActionValue, FieldsService } from "../fields/index.ts";
import type { VisionRecords } from "../processing/index.ts";
import type { AssetFacts, Evaluation } from "./ai-evaluate.ts";
import type { Evaluator } from "./ai-evaluator.ts";
import { aiRepo, type LiveAction, type ResultInput } from "./repo.ts";

export interface BatchDeps {
  db: Db;
  /** The values are the fields': set through them, by the rules of values-repo.ts. */
  fields: Pick<FieldsService, "applyByActions">;
  /** What the pipeline extracted (processing's record). */
  vision: Pick<VisionRecords, "extracted">;
  evaluator: Evaluator;
}

/** What the actions read of these assets: names and board paths here, the rest from the pipeline. */
async function factsOf(deps: BatchDeps, workspaceId: string, assetIds: string[]): Promise<AssetFacts[]> {
  const [subjects, extracted] = await Promise.all([
    aiRepo.subjects(deps.db, workspaceId, assetIds),
    deps.vision.extracted(workspaceId, assetIds),
  ]);
  const byId = new Map(subjects.map((s) => [s.id, s]));
  return assetIds.flatMap((id) => {
    const s = byId.get(id);
    const x = extracted.get(id);
    return s && x ? [{ id, name: s.name, board_paths: s.board_paths ?? [], ...x }] : [];
  });
}

/** The value the actions of one field choose: for a single select the most confident match wins. */
function choose(list: Array<{ a: LiveAction; e: Evaluation }>) {
  const hits = list
    .filter((x) => x.e.matched)
    .sort((x, y) => y.e.confidence - x.e.confidence || x.a.option_position - y.a.option_position);
  const single = list[0]!.a.field_type === "SINGLE_SELECT";
  const chosen = single ? hits.slice(0, 1) : hits;
  const want: ActionValue["want"] = chosen.length
    ? {
        optionId: single ? chosen[0]!.a.option_id : null,
        optionIds: single ? [] : [...new Set(chosen.map((x) => x.a.option_id))],
      }
    : null;
  return { chosen, want };
}

/**
 * Evaluates the workspace's actions (one field's if given) on a batch of assets, stores the results
 * and sets values by the rules in the contract (ai-actions.ts). What they read is read once for the
 * whole batch (the actions, the assets' facts), each asset is evaluated in the evaluation thread
 * under its own budget, and the values and results are written once. Answers how many assets had a
 * value changed.
 */
export async function evaluateAssets(
  deps: BatchDeps,
  workspaceId: string,
  assetIds: string[],
  fieldId?: string | null,
): Promise<number> {
  if (!assetIds.length) return 0;
  const actions = await aiRepo.live(deps.db, workspaceId, fieldId);
  if (!actions.length) return 0;
  const groups: Array<{ assetId: string; fieldId: string; list: Array<{ a: LiveAction; e: Evaluation }> }> = [];
  for (const facts of await factsOf(deps, workspaceId, assetIds)) {
    // Off the event loop, under a time budget (ai-evaluator.ts): a visitor's upload can name the file.
    const evaluations = await deps.evaluator.evaluate(
      actions.map((a) => ({ kind: a.kind, config: a.config })),
      facts,
    );
    const byField = new Map<string, Array<{ a: LiveAction; e: Evaluation }>>();
    actions.forEach((a, i) => {
      byField.set(a.field_id, [...(byField.get(a.field_id) ?? []), { a, e: evaluations[i]! }]);
    });
    for (const [fid, list] of byField) groups.push({ assetId: facts.id, fieldId: fid, list });
  }
  const choices = groups.map((g) => choose(g.list));
  const applied = await deps.fields.applyByActions(
    workspaceId,
    groups.map((g, i) => ({
      fieldId: g.fieldId,
      assetId: g.assetId,
      want: choices[i]!.want,
      actionId: choices[i]!.chosen[0]?.a.id ?? null,
    })),
  );
  const changed = new Set<string>();
  const results: ResultInput[] = [];
  groups.forEach((g, i) => {
    const r = applied[i]!;
    const { chosen } = choices[i]!;
    if (r.changed) changed.add(g.assetId);
    for (const x of g.list)
      results.push({
        assetId: g.assetId,
        actionId: x.a.id,
        matched: x.e.matched,
        confidence: Math.round(x.e.confidence * 1000) / 1000,
        evidence: x.e.evidence,
        setValue: r.written && chosen.some((c) => c.a.option_id === x.a.option_id && c.e.matched && x.e.matched),
      });
  });
  await aiRepo.saveResults(deps.db, workspaceId, results);
  return changed.size;
}
