import {
  isApproval,
  type ReviewAssetStatus,
  type ReviewDecisionKind,
  type ReviewState,
  type StageRule,
} from "./approvals.ts";

/**
 * Decisions are facts, states are derived (docs/architecture.md §10): this one pure function turns a
 * review's facts into every state the server stores for its queries, the web shows and the report
 * prints. The facts:
 * - the stages in order, each with its rule and its reviewers (ids), and which stage is active (a
 *   stage starts when the one before it is complete for every asset; the server records that);
 * - each asset with its current version and its reset point (`resetSeq`: a reopen; decisions up to
 *   it no longer count for the asset);
 * - every decision ever made (append-only), with its order (`seq`), reviewer, asset, version, stage.
 *
 * The rules (issue 30): for each asset, the decisions that count are the active stage's reviewers'
 * latest on the asset's current version after its reset point. One rejection, or else one request for
 * changes, stops the stage for the asset (until a new version or a reopen). Otherwise the stage is
 * passed when its rule is met by approvals (with or without changes): `all` of its reviewers, or
 * `any` one. Passing the last stage approves the asset (with changes if any counted approval says
 * so). A new version resets the asset's decisions in the active stage by itself: the decisions name
 * the version they were made on.
 */
export interface ReviewFacts {
  canceled: boolean;
  /** Index into `stages`. */
  activeStage: number;
  stages: ReadonlyArray<{ rule: StageRule; reviewers: readonly string[] }>;
  assets: ReadonlyArray<{ id: string; versionId: string; resetSeq: number }>;
  decisions: ReadonlyArray<{
    seq: number;
    reviewerId: string;
    assetId: string;
    versionId: string;
    stage: number;
    decision: ReviewDecisionKind;
  }>;
}

export interface AssetOutcome {
  assetId: string;
  status: ReviewAssetStatus;
  /** The active stage's rule is met for this asset (and nothing stops it). */
  passed: boolean;
  /** Reviewers of the active stage whose decision on this asset is awaited (none once passed or stopped). */
  awaiting: string[];
  /** The decision of each active-stage reviewer that counts now (absent: pending). */
  current: Record<string, ReviewDecisionKind>;
}

export interface ReviewOutcome {
  state: ReviewState;
  assets: AssetOutcome[];
  /** Every asset passed the active stage: the next stage starts (after the last: the review is approved). */
  stageComplete: boolean;
  /** Not canceled and no decision is awaited any more (approved, or stopped by changes or rejections). */
  done: boolean;
  /** How many assets await each reviewer of the active stage (0 for the rest). */
  waiting: Record<string, number>;
  progress: { total: number; approved: number; changes_requested: number; rejected: number; in_review: number };
}

function assetOutcome(facts: ReviewFacts, asset: ReviewFacts["assets"][number]): AssetOutcome {
  const stage = facts.stages[facts.activeStage];
  const reviewers = new Set(stage?.reviewers ?? []);
  const latest = new Map<string, { seq: number; decision: ReviewDecisionKind }>();
  for (const d of facts.decisions) {
    if (d.assetId !== asset.id || d.stage !== facts.activeStage || d.versionId !== asset.versionId) continue;
    if (d.seq <= asset.resetSeq || !reviewers.has(d.reviewerId)) continue;
    const seen = latest.get(d.reviewerId);
    if (!seen || seen.seq < d.seq) latest.set(d.reviewerId, { seq: d.seq, decision: d.decision });
  }
  const current: Record<string, ReviewDecisionKind> = {};
  for (const [id, d] of latest) current[id] = d.decision;
  const decisions = [...latest.values()].map((d) => d.decision);
  const base = { assetId: asset.id, current };
  if (decisions.includes("rejected")) return { ...base, status: "rejected", passed: false, awaiting: [] };
  if (decisions.includes("changes_requested"))
    return { ...base, status: "changes_requested", passed: false, awaiting: [] };
  const approvals = decisions.filter(isApproval);
  const met =
    stage !== undefined &&
    reviewers.size > 0 &&
    (stage.rule === "any" ? approvals.length > 0 : [...reviewers].every((r) => latest.has(r)));
  if (met) {
    const last = facts.activeStage === facts.stages.length - 1;
    const withChanges = approvals.includes("approved_with_changes");
    const status: ReviewAssetStatus = !last ? "in_review" : withChanges ? "approved_with_changes" : "approved";
    return { ...base, status, passed: true, awaiting: [] };
  }
  const awaiting = [...reviewers].filter((r) => !latest.has(r));
  return { ...base, status: "in_review", passed: false, awaiting };
}

export function reviewState(facts: ReviewFacts): ReviewOutcome {
  const assets = facts.assets.map((a) => assetOutcome(facts, a));
  const count = (s: ReviewAssetStatus) => assets.filter((a) => a.status === s).length;
  const approved = count("approved") + count("approved_with_changes");
  const progress = {
    total: assets.length,
    approved,
    changes_requested: count("changes_requested"),
    rejected: count("rejected"),
    in_review: count("in_review"),
  };
  const stageComplete = assets.length > 0 && assets.every((a) => a.passed);
  const waiting: Record<string, number> = {};
  for (const stage of facts.stages) for (const r of stage.reviewers) waiting[r] = 0;
  if (facts.canceled) return { state: "canceled", assets, stageComplete: false, done: false, waiting, progress };
  for (const a of assets) for (const r of a.awaiting) waiting[r] = (waiting[r] ?? 0) + 1;
  const state: ReviewState =
    assets.length > 0 && approved === assets.length
      ? "approved"
      : progress.rejected > 0
        ? "rejected"
        : progress.changes_requested > 0
          ? "changes_requested"
          : "open";
  const moreStages = facts.activeStage < facts.stages.length - 1;
  const done = assets.length > 0 && assets.every((a) => a.awaiting.length === 0) && !(stageComplete && moreStages);
  return { state, assets, stageComplete, done, waiting, progress };
}
