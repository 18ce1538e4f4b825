import { type ReviewFacts, type ReviewOutcome, reviewState } from "@hangar/contract";
import type { Db } from "../../db/db.ts";
import { type DecisionFact, factsRepo, type ReviewAssetFact, type ReviewerFact } from "./facts-repo.ts";
import { type ReviewRow, reviewsRepo } from "./repo.ts";

/** A review's facts, read whole in one transaction (or not: for answers). */
export interface LoadedReview {
  review: ReviewRow;
  stages: Array<{ position: number; rule: "all" | "any"; started_at: Date | null }>;
  reviewers: ReviewerFact[];
  assets: ReviewAssetFact[];
  decisions: DecisionFact[];
}

export async function loadReview(db: Db, review: ReviewRow): Promise<LoadedReview> {
  const [stages, reviewers, assets, decisions] = await Promise.all([
    factsRepo.stages(db, review.id),
    factsRepo.reviewers(db, review.id),
    factsRepo.assets(db, review.id),
    factsRepo.decisions(db, review.id),
  ]);
  return { review, stages, reviewers, assets, decisions };
}

/** The pure function's input (contract: review-state.ts): live assets, reviewers not removed. */
export function factsOf(r: LoadedReview, activeStage = r.review.active_stage): ReviewFacts {
  return {
    canceled: r.review.canceled_at !== null,
    activeStage,
    stages: r.stages.map((s) => ({
      rule: s.rule,
      reviewers: r.reviewers.filter((x) => x.stage === s.position && x.removed_at === null).map((x) => x.id),
    })),
    assets: r.assets
      .filter((a) => a.live)
      .map((a) => ({ id: a.asset_id, versionId: a.current_version_id, resetSeq: a.reset_seq })),
    decisions: r.decisions.map((d) => ({
      seq: d.seq,
      reviewerId: d.reviewer_id,
      assetId: d.asset_id,
      versionId: d.version_id,
      stage: d.stage,
      decision: d.decision,
    })),
  };
}

export interface Recomputed {
  loaded: LoadedReview;
  outcome: ReviewOutcome;
  /** Stages started by this change (their reviewers are to be asked). */
  started: number[];
}

/**
 * Derives the review's state from its facts (the contract's `reviewState`) and keeps what the
 * queries read: the review's state and done time, each asset's status (with the version it is for),
 * each reviewer's waiting count. A stage complete for every asset starts the next (recorded: it is a
 * fact that it started, and when). Runs in the caller's transaction, the review row locked.
 */
export async function recompute(tx: Db, review: ReviewRow, now: Date): Promise<Recomputed> {
  const loaded = await loadReview(tx, review);
  let active = review.active_stage;
  let outcome = reviewState(factsOf(loaded, active));
  const started: number[] = [];
  while (outcome.stageComplete && active < loaded.stages.length - 1) {
    active += 1;
    await reviewsRepo.startStage(tx, review.id, active, now);
    await reviewsRepo.event(tx, {
      review_id: review.id,
      workspace_id: review.workspace_id,
      type: "stage_started",
      stage: active,
    });
    const stage = loaded.stages[active];
    if (stage) stage.started_at = now;
    started.push(active);
    outcome = reviewState(factsOf(loaded, active));
  }
  const doneAt = outcome.done ? (review.done_at ?? now) : null;
  if (outcome.done && !review.done_at)
    await reviewsRepo.event(tx, {
      review_id: review.id,
      workspace_id: review.workspace_id,
      type: "completed",
      detail: outcome.state,
    });
  if (
    outcome.state !== review.state ||
    active !== review.active_stage ||
    doneAt?.getTime() !== review.done_at?.getTime()
  )
    await reviewsRepo.update(tx, review.id, { state: outcome.state, active_stage: active, done_at: doneAt });
  const byId = new Map(loaded.assets.map((a) => [a.asset_id, a]));
  for (const a of outcome.assets) {
    const row = byId.get(a.assetId)!;
    if (row.status !== a.status || row.version_id !== row.current_version_id)
      await reviewsRepo.setAssetDerived(tx, review.id, a.assetId, a.status, row.current_version_id);
    row.status = a.status;
    row.version_id = row.current_version_id;
  }
  for (const r of loaded.reviewers) {
    const waiting = r.removed_at ? 0 : (outcome.waiting[r.id] ?? 0);
    if (r.waiting !== waiting) await reviewsRepo.setWaiting(tx, r.id, waiting);
    r.waiting = waiting;
  }
  const fresh = { ...review, state: outcome.state, active_stage: active, done_at: doneAt };
  return { loaded: { ...loaded, review: fresh }, outcome, started };
}
