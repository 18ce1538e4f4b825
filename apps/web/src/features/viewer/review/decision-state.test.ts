import { REVIEW_MESSAGES, type Review, type ReviewerPage } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import { anAsset, anId, WORKSPACE_ID } from "../../../test/fixtures";
import { asksForNote, DECISION_ACTIONS, externalDecisionView, memberDecisionView, nextWaiting } from "./decision-state";

/** The decision bar's rules (issue 30), on reviews as the server answers them. */
const ME = anId();
const OTHER = anId();
const [A, B, C] = [anId(), anId(), anId()];
const VERSION = { [A]: anId(), [B]: anId(), [C]: anId() };

type Entry = Review["assets"][number];
function entry(assetId: string, overrides: Partial<Entry> = {}): Entry {
  return {
    asset_id: assetId,
    name: `${assetId}.jpg`,
    asset: anAsset({ id: assetId, current_version: { id: VERSION[assetId]!, number: 2 } }),
    current_version: { id: VERSION[assetId]!, number: 2 },
    status: "in_review",
    locked: false,
    awaiting: [ME, OTHER],
    cells: [
      { reviewer_id: ME, stage: 0, decision: null, decision_id: null, decided_at: null, note: null },
      { reviewer_id: OTHER, stage: 0, decision: null, decision_id: null, decided_at: null, note: null },
    ],
    ...overrides,
  };
}

function aReview(overrides: Partial<Review> = {}): Review {
  return {
    id: anId(),
    workspace_id: WORKSPACE_ID,
    title: "Spring campaign",
    message: "",
    board_id: null,
    due_at: null,
    overdue: false,
    lock_on_approval: true,
    state: "open",
    done: false,
    active_stage: 0,
    requested_by: { id: anId(), name: "Olivia Owner" },
    created_at: "2026-03-01T10:00:00.000Z",
    updated_at: "2026-03-01T10:00:00.000Z",
    canceled_at: null,
    stages: [],
    assets: [entry(A), entry(B), entry(C)],
    progress: { total: 3, approved: 0, changes_requested: 0, rejected: 0, in_review: 3 },
    decisions: [],
    history: [],
    me: { reviewer_id: ME, stage: 0, waiting: [A, B, C] },
    abilities: { edit: false, cancel: false, reopen: false, decide: true },
    ...overrides,
  };
}

describe("nextWaiting", () => {
  it("answers the next waiting id after the current one, from the start again, never the current one", () => {
    const order = [A, B, C];
    expect(nextWaiting(order, new Set([A, B, C]), A)).toBe(B);
    expect(nextWaiting(order, new Set([A, C]), A)).toBe(C);
    expect(nextWaiting(order, new Set([A, B]), C)).toBe(A);
    expect(nextWaiting(order, new Set([B]), B)).toBeNull();
    expect(nextWaiting(order, new Set(), B)).toBeNull();
  });

  it("starts from the beginning when the current asset is not in the order", () => {
    expect(nextWaiting([A, B], new Set([B]), C)).toBe(B);
  });
});

describe("the decision buttons", () => {
  it("are the four decisions in order; a plain approval needs no note, the other three ask for one", () => {
    expect(DECISION_ACTIONS.map((a) => a.label)).toEqual([
      "Approve",
      "Approve with changes",
      "Request changes",
      "Reject",
    ]);
    expect(DECISION_ACTIONS.map((a) => asksForNote(a.decision))).toEqual([false, true, true, true]);
  });
});

describe("a member's decision bar", () => {
  it("is not shown to someone who is not a reviewer of the review, or for an asset not in it", () => {
    const notMine = aReview({ me: { reviewer_id: null, stage: null, waiting: [] } });
    expect(memberDecisionView(notMine, A, null)).toBeNull();
    expect(memberDecisionView(aReview(), anId(), null)).toBeNull();
  });

  it("is not shown for an asset of the review that was deleted", () => {
    const review = aReview({ assets: [entry(A, { asset: null }), entry(B)] });
    expect(memberDecisionView(review, A, null)).toBeNull();
    // …nor offered as the next one.
    expect(memberDecisionView(review, B, null)?.nextAssetId).toBeNull();
  });

  it("pending: awaiting me, no decision of mine, the buttons open, the next waiting asset named", () => {
    const view = memberDecisionView(aReview(), A, null)!;
    expect(view).toMatchObject({
      status: "in_review",
      mine: null,
      awaitingMe: true,
      blocked: null,
      versionId: VERSION[A],
      nextAssetId: B,
      waitingCount: 3,
      reviewTitle: "Spring campaign",
    });
  });

  it("shows my decision on the current version, and the next asset still awaiting me skips decided ones", () => {
    const decided = entry(B, {
      awaiting: [OTHER],
      cells: [
        {
          reviewer_id: ME,
          stage: 0,
          decision: "changes_requested",
          decision_id: anId(),
          decided_at: "2026-03-02T09:00:00.000Z",
          note: "Logo too small",
        },
        { reviewer_id: OTHER, stage: 0, decision: null, decision_id: null, decided_at: null, note: null },
      ],
      status: "changes_requested",
    });
    const review = aReview({
      assets: [entry(A), decided, entry(C)],
      me: { reviewer_id: ME, stage: 0, waiting: [A, C] },
    });
    const view = memberDecisionView(review, B, null)!;
    expect(view.mine).toEqual({
      decision: "changes_requested",
      note: "Logo too small",
      decidedAt: "2026-03-02T09:00:00.000Z",
    });
    expect(view.awaitingMe).toBe(false);
    expect(view.status).toBe("changes_requested");
    // A reviewer may still change their mind while their stage is active.
    expect(view.blocked).toBeNull();
    expect(view.nextAssetId).toBe(C);
    expect(memberDecisionView(review, A, null)!.nextAssetId).toBe(C);
    expect(memberDecisionView(review, C, null)!.nextAssetId).toBe(A);
  });

  it("another reviewer's decision is not mine", () => {
    const theirs = entry(A, {
      cells: [
        { reviewer_id: ME, stage: 0, decision: null, decision_id: null, decided_at: null, note: null },
        {
          reviewer_id: OTHER,
          stage: 0,
          decision: "approved",
          decision_id: anId(),
          decided_at: "2026-03-02T09:00:00.000Z",
          note: null,
        },
      ],
    });
    expect(memberDecisionView(aReview({ assets: [theirs] }), A, null)!.mine).toBeNull();
  });

  it("says why the buttons are off: a later stage, a stage done, a canceled review", () => {
    const later = aReview({
      me: { reviewer_id: ME, stage: 1, waiting: [] },
      abilities: { ...aReview().abilities, decide: false },
    });
    expect(memberDecisionView(later, A, null)!.blocked).toBe(REVIEW_MESSAGES.waitingStage(2));
    expect(REVIEW_MESSAGES.waitingStage(2)).toContain("stage 1 is done");
    const done = aReview({ active_stage: 1, me: { reviewer_id: ME, stage: 0, waiting: [] } });
    expect(memberDecisionView(done, A, null)!.blocked).toBe(REVIEW_MESSAGES.stageDone);
    const canceled = aReview({ state: "canceled", canceled_at: "2026-03-03T00:00:00.000Z" });
    expect(memberDecisionView(canceled, A, null)!.blocked).toBe(REVIEW_MESSAGES.canceled);
    const refused = aReview({ abilities: { ...aReview().abilities, decide: false } });
    expect(memberDecisionView(refused, A, null)!.blocked).toBe(REVIEW_MESSAGES.notReviewer);
  });

  it("decides on the current version only: another version on screen blocks the buttons", () => {
    const review = aReview();
    expect(memberDecisionView(review, A, VERSION[A]!)!.blocked).toBeNull();
    expect(memberDecisionView(review, A, anId())!.blocked).toBe(
      "Decisions are made on the current version (v2): show it to decide.",
    );
  });
});

describe("an outside reviewer's decision bar", () => {
  function aPage(overrides: Partial<ReviewerPage> = {}): ReviewerPage {
    const item = (id: string, awaiting: boolean, mine: ReviewerPage["assets"][number]["my_decision"] = null) => ({
      asset: anAsset({ id, current_version: { id: VERSION[id]!, number: 1 } }),
      status: "in_review" as const,
      awaiting_me: awaiting,
      my_decision: mine,
      decisions: [],
    });
    return {
      review: {
        id: anId(),
        title: "Spring campaign",
        message: "Please look by Friday",
        due_at: null,
        overdue: false,
        state: "open",
        done: false,
        requested_by_name: "Olivia Owner",
        workspace_name: "Northwind",
        active_stage: 0,
        stage_count: 1,
      },
      reviewer: { id: anId(), name: "Pat Outside", email: "pat@example.test", stage: 0, can_decide: true },
      assets: [
        item(A, true),
        item(B, false, { decision: "approved", note: null, decided_at: "2026-03-02T09:00:00.000Z" }),
        item(C, true),
      ],
      progress: { total: 3, approved: 0, changes_requested: 0, rejected: 0, in_review: 3 },
      ...overrides,
    };
  }

  it("shows their own decision, whether it is awaited, the version decided on and the next waiting asset", () => {
    const page = aPage();
    expect(externalDecisionView(page, B)).toMatchObject({
      mine: { decision: "approved", note: null, decidedAt: "2026-03-02T09:00:00.000Z" },
      awaitingMe: false,
      blocked: null,
      versionId: VERSION[B],
      nextAssetId: C,
      waitingCount: 2,
    });
    expect(externalDecisionView(page, A)!.nextAssetId).toBe(C);
    expect(externalDecisionView(page, C)!.nextAssetId).toBe(A);
    expect(externalDecisionView(page, anId())).toBeNull();
  });

  it("blocks the buttons, saying why, while their stage waits or after the review was canceled", () => {
    const page = aPage();
    const waiting = aPage({ reviewer: { ...page.reviewer, stage: 1, can_decide: false } });
    expect(externalDecisionView(waiting, A)!.blocked).toBe(REVIEW_MESSAGES.waitingStage(2));
    const canceled = aPage({
      review: { ...page.review, state: "canceled" },
      reviewer: { ...page.reviewer, can_decide: false },
    });
    expect(externalDecisionView(canceled, A)!.blocked).toBe(REVIEW_MESSAGES.canceled);
  });
});
