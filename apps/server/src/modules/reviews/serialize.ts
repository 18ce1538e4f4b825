import type { Asset, Review, ReviewOutcome, ReviewReviewer, ReviewSummary } from "@hangar/contract";
import type { DecisionFact, EventFact, ReviewAssetFact, ReviewerFact } from "./facts-repo.ts";
import { reviewerName } from "./kind.ts";
import type { LoadedReview } from "./state.ts";

/** How a reviewer is named: a member by their name now (else as recorded), an outsider as the requester named them. */
export const displayName = (r: Pick<ReviewerFact, "member_name" | "name" | "email">) =>
  r.member_name?.trim() || r.name || r.email || "Former member";

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Overdue: a due date passed while decisions were still awaited. */
export const isOverdue = (r: { due_at: Date | null; done_at: Date | null; canceled_at: Date | null }, now: Date) =>
  r.due_at !== null && r.due_at.getTime() <= now.getTime() && r.done_at === null && r.canceled_at === null;

/**
 * Each reviewer's latest decision on an asset's current version since its last reopen (the matrix's
 * cell); the active stage's are what count for the state.
 */
export function latestDecisions(decisions: DecisionFact[], asset: ReviewAssetFact): Map<string, DecisionFact> {
  const out = new Map<string, DecisionFact>();
  for (const d of decisions)
    if (d.asset_id === asset.asset_id && d.version_id === asset.current_version_id && d.seq > asset.reset_seq)
      out.set(d.reviewer_id, d); // in seq order: the last one wins
  return out;
}

export interface ReviewCaller {
  /** The member asking (null: nobody in particular, e.g. a mail). */
  userId: string | null;
  /** The requester or an ADMIN. */
  manage: boolean;
  /** The caller's role lets them decide (COMMENTER and up). */
  mayDecide: boolean;
}

export function serializeReviewer(r: ReviewerFact, manage: boolean): ReviewReviewer {
  return {
    id: r.id,
    stage: r.stage,
    kind: r.token ? "external" : "member",
    user_id: r.user_id,
    name: r.token ? reviewerName(r) : displayName(r),
    email: r.token ? r.email : null,
    waiting: r.waiting,
    asked_at: iso(r.asked_at),
    link:
      r.token && manage
        ? {
            token: r.token,
            path: `/review/${r.token}`,
            is_active: r.is_active,
            expires_at: iso(r.expires_at),
            has_password: r.password_hash !== null,
          }
        : null,
  };
}

export function serializeReview(input: {
  loaded: LoadedReview;
  outcome: ReviewOutcome;
  events: EventFact[];
  assets: Map<string, Asset>;
  requester: { id: string; name: string } | null;
  caller: ReviewCaller;
  now: Date;
}): Review {
  const { loaded, outcome, caller } = input;
  const { review } = loaded;
  const active = review.active_stage;
  const canceled = review.canceled_at !== null;
  const reviewers = loaded.reviewers.filter((r) => r.removed_at === null);
  const names = new Map(loaded.reviewers.map((r) => [r.id, r.token ? reviewerName(r) : displayName(r)]));
  const outcomes = new Map(outcome.assets.map((a) => [a.assetId, a]));
  const counted = new Set<string>();
  const entries = loaded.assets
    .filter((a) => a.live)
    .map((a) => {
      const o = outcomes.get(a.asset_id)!;
      const latest = latestDecisions(loaded.decisions, a);
      for (const d of latest.values())
        if (d.stage === active && o.current[d.reviewer_id] !== undefined) counted.add(d.id);
      const approved = o.status === "approved" || o.status === "approved_with_changes";
      return {
        asset_id: a.asset_id,
        name: a.name,
        asset: input.assets.get(a.asset_id) ?? null,
        current_version: { id: a.current_version_id, number: a.current_version_number },
        status: o.status,
        locked: approved && review.lock_on_approval && !canceled,
        awaiting: o.awaiting,
        cells: reviewers.map((r) => {
          const d = latest.get(r.id);
          return {
            reviewer_id: r.id,
            stage: r.stage,
            decision: d?.decision ?? null,
            decision_id: d?.id ?? null,
            decided_at: iso(d?.created_at ?? null),
            note: d?.note ?? null,
          };
        }),
      };
    });
  const mine = caller.userId ? reviewers.find((r) => r.user_id === caller.userId) : undefined;
  const lastDone = outcome.stageComplete && active === loaded.stages.length - 1;
  return {
    id: review.id,
    workspace_id: review.workspace_id,
    title: review.title,
    message: review.message,
    board_id: review.board_id,
    due_at: iso(review.due_at),
    overdue: isOverdue(review, input.now),
    lock_on_approval: review.lock_on_approval,
    // Derived now from the facts (the stored copy is what lists filter on; they agree after every change).
    state: outcome.state,
    done: outcome.done,
    active_stage: active,
    requested_by: input.requester,
    created_at: review.created_at.toISOString(),
    updated_at: review.updated_at.toISOString(),
    canceled_at: iso(review.canceled_at),
    stages: loaded.stages.map((s) => ({
      index: s.position,
      rule: s.rule,
      state:
        s.position < active || (s.position === active && lastDone)
          ? "done"
          : s.position === active
            ? "active"
            : "waiting",
      started_at: iso(s.started_at),
      reviewers: reviewers.filter((r) => r.stage === s.position).map((r) => serializeReviewer(r, caller.manage)),
    })),
    assets: entries,
    progress: outcome.progress,
    decisions: loaded.decisions.map((d) => ({
      id: d.id,
      asset_id: d.asset_id,
      asset_name: d.asset_name,
      version_id: d.version_id,
      version_number: d.version_number,
      reviewer_id: d.reviewer_id,
      reviewer_name: names.get(d.reviewer_id) ?? "Reviewer",
      stage: d.stage,
      decision: d.decision,
      note: d.note,
      comment_id: d.comment_id,
      created_at: d.created_at.toISOString(),
      counts: counted.has(d.id),
    })),
    history: input.events.map((e) => ({
      id: e.id,
      type: e.type,
      at: e.created_at.toISOString(),
      by: e.actor_name,
      stage: e.stage,
      asset_ids: e.asset_ids,
      detail: e.detail,
    })),
    me: {
      reviewer_id: mine?.id ?? null,
      stage: mine?.stage ?? null,
      waiting: mine ? outcome.assets.filter((a) => a.awaiting.includes(mine.id)).map((a) => a.assetId) : [],
    },
    abilities: {
      edit: caller.manage,
      cancel: caller.manage && !canceled,
      reopen: caller.manage,
      decide: caller.mayDecide && !canceled && mine !== undefined && mine.stage === active,
    },
  };
}

/** A row of the reviews list (list-repo.ts reads it with its counts). */
export interface SummaryRow {
  id: string;
  title: string;
  state: Review["state"];
  due_at: Date | null;
  done_at: Date | null;
  canceled_at: Date | null;
  created_by: string | null;
  requester_name: string | null;
  created_at: Date;
  updated_at: Date;
  active_stage: number;
  stage_count: number;
  total: number;
  approved: number;
  changes_requested: number;
  rejected: number;
  in_review: number;
  waiting_for_me: number;
}

export const serializeSummary = (r: SummaryRow, now: Date): ReviewSummary => ({
  id: r.id,
  title: r.title,
  state: r.state,
  done: r.done_at !== null,
  due_at: iso(r.due_at),
  overdue: isOverdue(r, now),
  requested_by: r.created_by ? { id: r.created_by, name: r.requester_name?.trim() || "Former member" } : null,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
  active_stage: r.active_stage,
  stage_count: r.stage_count,
  progress: {
    total: r.total,
    approved: r.approved,
    changes_requested: r.changes_requested,
    rejected: r.rejected,
    in_review: r.in_review,
  },
  waiting_for_me: r.waiting_for_me,
});
