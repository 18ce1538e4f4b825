import { describe, expect, it } from "vitest";
import type { ReviewDecisionKind } from "./approvals.ts";
import { type ReviewFacts, reviewState } from "./review-state.ts";

/** The one function that derives every approval state (issue 30) from a review's facts. */
let seq = 0;
const d = (
  reviewerId: string,
  assetId: string,
  decision: ReviewDecisionKind,
  more: Partial<{ stage: number; versionId: string }> = {},
) => ({
  seq: ++seq,
  reviewerId,
  assetId,
  versionId: more.versionId ?? `${assetId}-v1`,
  stage: more.stage ?? 0,
  decision,
});
const facts = (over: Partial<ReviewFacts> = {}): ReviewFacts => ({
  canceled: false,
  activeStage: 0,
  stages: [{ rule: "all", reviewers: ["ann", "bob"] }],
  assets: [
    { id: "a", versionId: "a-v1", resetSeq: 0 },
    { id: "b", versionId: "b-v1", resetSeq: 0 },
  ],
  decisions: [],
  ...over,
});

describe("reviewState", () => {
  it("all: every reviewer approves each asset; until then the asset awaits the others", () => {
    const one = reviewState(facts({ decisions: [d("ann", "a", "approved")] }));
    expect(one.state).toBe("open");
    expect(one.assets[0]).toMatchObject({ status: "in_review", awaiting: ["bob"], passed: false });
    expect(one.waiting).toEqual({ ann: 1, bob: 2 });
    const all = reviewState(
      facts({
        decisions: [
          d("ann", "a", "approved"),
          d("bob", "a", "approved_with_changes"),
          d("ann", "b", "approved"),
          d("bob", "b", "approved"),
        ],
      }),
    );
    expect(all.assets.map((a) => a.status)).toEqual(["approved_with_changes", "approved"]);
    expect(all).toMatchObject({ state: "approved", done: true, stageComplete: true });
    expect(all.progress).toEqual({ total: 2, approved: 2, changes_requested: 0, rejected: 0, in_review: 0 });
  });

  it("any: one approval is enough; one request for changes stops the asset, a rejection outranks it", () => {
    const any = facts({ stages: [{ rule: "any", reviewers: ["ann", "bob"] }] });
    const r = reviewState({ ...any, decisions: [d("ann", "a", "approved"), d("bob", "b", "changes_requested")] });
    expect(r.assets.map((a) => a.status)).toEqual(["approved", "changes_requested"]);
    expect(r).toMatchObject({ state: "changes_requested", done: true });
    const rejected = reviewState({
      ...any,
      decisions: [d("ann", "a", "changes_requested"), d("bob", "a", "rejected")],
    });
    expect(rejected.assets[0]!.status).toBe("rejected");
    expect(rejected.state).toBe("rejected");
    expect(rejected.done).toBe(false); // b still awaits both
  });

  it("deciding again replaces the reviewer's decision; a reset (reopen) and another version make it pending", () => {
    const changed = reviewState(facts({ decisions: [d("ann", "a", "changes_requested"), d("ann", "a", "approved")] }));
    expect(changed.assets[0]).toMatchObject({ status: "in_review", current: { ann: "approved" } });
    const decisions = [d("ann", "a", "approved"), d("bob", "a", "approved")];
    const reset = reviewState(facts({ decisions, assets: [{ id: "a", versionId: "a-v1", resetSeq: seq }] }));
    expect(reset.assets[0]).toMatchObject({ status: "in_review", current: {}, awaiting: ["ann", "bob"] });
    const newVersion = reviewState(facts({ decisions, assets: [{ id: "a", versionId: "a-v2", resetSeq: 0 }] }));
    expect(newVersion.assets[0]).toMatchObject({ status: "in_review", current: {} });
  });

  it("two stages: the first passed is in review still; the second's decisions approve; stage 1's do not count there", () => {
    const stages = [
      { rule: "all" as const, reviewers: ["ann"] },
      { rule: "any" as const, reviewers: ["cat", "dan"] },
    ];
    const assets = [{ id: "a", versionId: "a-v1", resetSeq: 0 }];
    const first = reviewState(facts({ stages, assets, decisions: [d("ann", "a", "approved")] }));
    expect(first).toMatchObject({ stageComplete: true, done: false, state: "open" });
    expect(first.assets[0]!.status).toBe("in_review");
    const second = reviewState(facts({ stages, assets, activeStage: 1, decisions: [d("ann", "a", "approved")] }));
    expect(second.assets[0]).toMatchObject({ status: "in_review", awaiting: ["cat", "dan"] });
    const approved = reviewState(
      facts({
        stages,
        assets,
        activeStage: 1,
        decisions: [d("ann", "a", "approved"), d("dan", "a", "approved", { stage: 1 })],
      }),
    );
    expect(approved).toMatchObject({ state: "approved", done: true });
  });

  it("canceled: nothing awaited, never done", () => {
    const r = reviewState(facts({ canceled: true, decisions: [d("ann", "a", "approved")] }));
    expect(r).toMatchObject({ state: "canceled", done: false, waiting: { ann: 0, bob: 0 } });
  });
});
