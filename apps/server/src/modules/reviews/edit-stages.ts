import { REVIEW_MESSAGES } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import { conflict } from "../../platform/errors.ts";
import { reviewsRepo } from "./repo.ts";
import { keyOf, type ResolvedStage, reviewerRow } from "./reviewers.ts";
import type { LoadedReview } from "./state.ts";

/**
 * A review's stages replaced by the requester (issue 30): the stages already done stay as they were
 * (409 otherwise), the active one stays (it may change its rule and reviewers). Reviewers are kept by
 * who they are, so their decisions and links stay theirs; one moved to a later stage is asked again
 * when it starts; the ones left out are removed (their links end, their decisions stay in the record).
 * Answers what changed, for the history.
 */
export async function applyStages(tx: Db, loaded: LoadedReview, stages: ResolvedStage[], now: Date): Promise<string> {
  const { review } = loaded;
  const active = review.active_stage;
  const current = loaded.reviewers.filter((r) => r.removed_at === null);
  for (let i = 0; i < active; i++) {
    const before = new Set(current.filter((r) => r.stage === i).map(keyOf));
    const after = new Set((stages[i]?.reviewers ?? []).map((n) => n.key));
    const same =
      stages[i]?.rule === loaded.stages[i]?.rule &&
      before.size === after.size &&
      [...before].every((k) => after.has(k));
    if (!same) throw conflict(REVIEW_MESSAGES.stageLocked(i + 1));
  }
  if (stages.length <= active) throw conflict(REVIEW_MESSAGES.activeStageGone);
  const started = loaded.stages.find((s) => s.position === active)?.started_at ?? now;
  await reviewsRepo.replaceStagesFrom(
    tx,
    review.id,
    active,
    stages.slice(active).map((s, k) => ({
      review_id: review.id,
      workspace_id: review.workspace_id,
      position: active + k,
      rule: s.rule,
      started_at: active + k === active ? started : null,
    })),
  );
  const byKey = new Map(current.map((r) => [keyOf(r), r]));
  const wanted = new Set<string>();
  let added = 0;
  let moved = 0;
  for (const named of stages.flatMap((s) => s.reviewers)) {
    wanted.add(named.key);
    const had = byKey.get(named.key);
    if (!had) {
      await reviewsRepo.insertReviewers(tx, [await reviewerRow(named, review)]);
      added++;
      continue;
    }
    const patch: { stage?: number; asked_at?: null; name?: string; position?: number } = {};
    if (had.position !== named.position) patch.position = named.position;
    if (had.stage !== named.stage) {
      patch.stage = named.stage;
      // Asked again when their new stage starts (or now, when it is the active one and they were not).
      if (named.stage !== active) patch.asked_at = null;
      moved++;
    }
    if (had.token && named.name && named.name !== had.name) patch.name = named.name;
    if (Object.keys(patch).length) await reviewsRepo.updateReviewer(tx, had.id, patch);
  }
  let removed = 0;
  for (const r of current)
    if (!wanted.has(keyOf(r))) {
      await reviewsRepo.updateReviewer(tx, r.id, { removed_at: now, waiting: 0 });
      removed++;
    }
  const parts = [
    `${stages.length} stage(s)`,
    added ? `${added} reviewer(s) added` : null,
    moved ? `${moved} moved` : null,
    removed ? `${removed} removed` : null,
  ];
  return parts.filter(Boolean).join(", ");
}
