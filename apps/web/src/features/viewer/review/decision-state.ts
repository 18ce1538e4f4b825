import {
  REVIEW_DECISIONS,
  REVIEW_MESSAGES,
  type Review,
  type ReviewAssetStatus,
  type ReviewDecisionKind,
  type ReviewerPage,
} from "@hangar/contract";

/**
 * What the viewer's decision bar shows and allows (issue 30), worked out from the review as a member
 * reads it (`Review`) or as an outside reviewer's link answers it (`ReviewerPage`). Pure, so the rules
 * are tested without a screen: who sees the bar, whether they may decide now (and why not), their
 * decision on the asset's current version, and the next asset awaiting them.
 */
export interface DecisionView {
  reviewId: string;
  reviewTitle: string;
  /** The asset's status in the review. */
  status: ReviewAssetStatus;
  /** The caller's decision that counts on the current version (null: pending). */
  mine: { decision: ReviewDecisionKind; note: string | null; decidedAt: string } | null;
  /** The caller's decision on this asset is awaited. */
  awaitingMe: boolean;
  /** Null: they may decide now; else why not (shown in place of the buttons). */
  blocked: string | null;
  /** The version a decision is made on (sent, so a version that became current meanwhile is refused). */
  versionId: string | null;
  /** The next asset of the review awaiting the caller (after this one, from the start again); null: none. */
  nextAssetId: string | null;
  /** How many assets of the review await the caller, this one included. */
  waitingCount: number;
}

/** The buttons, in order: what each says (the contract's labels are the past tense shown after). */
export const DECISION_ACTIONS: ReadonlyArray<{ decision: ReviewDecisionKind; label: string }> = REVIEW_DECISIONS.map(
  (decision) => ({
    decision,
    label: {
      approved: "Approve",
      approved_with_changes: "Approve with changes",
      changes_requested: "Request changes",
      rejected: "Reject",
    }[decision],
  }),
);

/** A plain approval is one click; the other three ask for a note (optional, as the contract has it). */
export const asksForNote = (decision: ReviewDecisionKind) => decision !== "approved";

/** Mantine colours of statuses and decisions. */
export const STATUS_COLOURS: Record<ReviewAssetStatus, string> = {
  in_review: "blue",
  approved: "green",
  approved_with_changes: "teal",
  changes_requested: "orange",
  rejected: "red",
};

/** After the current one in `order`, from the start again: the first id `waiting` holds (never `current`). */
export function nextWaiting(order: readonly string[], waiting: ReadonlySet<string>, current: string): string | null {
  const at = order.indexOf(current);
  for (let step = 1; step <= order.length; step++) {
    const id = order[(at + step) % order.length]!;
    if (id !== current && waiting.has(id)) return id;
  }
  return null;
}

/** Why a reviewer cannot decide now (null: they can). Stages are numbered from 0 in the API, from 1 in words. */
export function blockedReason(r: { canceled: boolean; myStage: number; activeStage: number }): string | null {
  if (r.canceled) return REVIEW_MESSAGES.canceled;
  if (r.myStage > r.activeStage) return REVIEW_MESSAGES.waitingStage(r.myStage + 1);
  if (r.myStage < r.activeStage) return REVIEW_MESSAGES.stageDone;
  return null;
}

/**
 * A member's bar on `assetId`: null unless they are a reviewer of the review and the asset is in it.
 * `shownVersionId`: the version on screen (null: the current one); a decision is on the current
 * version only, so another one on screen blocks the buttons.
 */
export function memberDecisionView(
  review: Review,
  assetId: string,
  shownVersionId: string | null,
): DecisionView | null {
  const me = review.me.reviewer_id;
  const entry = review.assets.find((a) => a.asset_id === assetId);
  if (!me || review.me.stage === null || !entry || !entry.asset) return null;
  const cell = entry.cells.find((c) => c.reviewer_id === me && c.decision !== null);
  const waiting = new Set(review.me.waiting);
  const stale = shownVersionId !== null && shownVersionId !== entry.current_version.id;
  const blocked =
    blockedReason({
      canceled: review.state === "canceled",
      myStage: review.me.stage,
      activeStage: review.active_stage,
    }) ??
    (!review.abilities.decide ? REVIEW_MESSAGES.notReviewer : null) ??
    (stale ? `Decisions are made on the current version (v${entry.current_version.number}): show it to decide.` : null);
  return {
    reviewId: review.id,
    reviewTitle: review.title,
    status: entry.status,
    mine:
      cell?.decision && cell.decided_at
        ? { decision: cell.decision, note: cell.note, decidedAt: cell.decided_at }
        : null,
    awaitingMe: waiting.has(assetId),
    blocked,
    versionId: entry.current_version.id,
    nextAssetId: nextWaiting(
      review.assets.filter((a) => a.asset).map((a) => a.asset_id),
      waiting,
      assetId,
    ),
    waitingCount: waiting.size,
  };
}

/** An outside reviewer's bar on `assetId` (their link's page): null when the asset is not in the review. */
export function externalDecisionView(page: ReviewerPage, assetId: string): DecisionView | null {
  const entry = page.assets.find((a) => a.asset.id === assetId);
  if (!entry) return null;
  const waiting = new Set(page.assets.filter((a) => a.awaiting_me).map((a) => a.asset.id));
  const blocked =
    blockedReason({
      canceled: page.review.state === "canceled",
      myStage: page.reviewer.stage,
      activeStage: page.review.active_stage,
    }) ?? (page.reviewer.can_decide ? null : REVIEW_MESSAGES.notReviewer);
  const mine = entry.my_decision;
  return {
    reviewId: page.review.id,
    reviewTitle: page.review.title,
    status: entry.status,
    mine: mine ? { decision: mine.decision, note: mine.note, decidedAt: mine.decided_at } : null,
    awaitingMe: entry.awaiting_me,
    blocked,
    versionId: entry.asset.current_version?.id ?? null,
    nextAssetId: nextWaiting(
      page.assets.map((a) => a.asset.id),
      waiting,
      assetId,
    ),
    waitingCount: waiting.size,
  };
}
