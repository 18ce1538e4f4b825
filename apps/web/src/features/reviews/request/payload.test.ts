import { CreateReviewBody, type Member, type Review, UpdateReviewBody } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import {
  addEntries,
  buildReviewBody,
  buildUpdateBody,
  draftFromReview,
  draftProblems,
  emptyDraft,
  newStage,
  parseTyped,
  type RequestDraft,
  type ReviewerEntry,
} from "./payload";

const member = (id: string, first: string, email: string): Member => ({
  user_id: id,
  email,
  first_name: first,
  last_name: "",
  avatar_url: null,
  role: "COMMENTER",
  joined_at: "2026-01-01T00:00:00Z",
});
const ANA = member("0c4b1f3e-8a2d-4e6f-b1a0-9d8c7b6a5f4e", "Ana", "ana@example.com");
const BO = member("7b0a6a7e-2d1c-4c1e-9f55-1f0b8f7a2c11", "Bo", "Bo@Example.com");
const ASSET = "3f1e2d4c-5b6a-4789-8abc-def012345678";
const BOARD = "9e8d7c6b-5a49-4382-9716-05f4e3d2c1b0";
const NOW = new Date("2026-03-01T12:00:00Z");

const ana: ReviewerEntry = { kind: "member", userId: ANA.user_id, name: "Ana", email: ANA.email };
const bo: ReviewerEntry = { kind: "member", userId: BO.user_id, name: "Bo", email: BO.email };
const outsider: ReviewerEntry = { kind: "email", email: "client@agency.test" };

function twoStages(): RequestDraft {
  const draft = emptyDraft("  Spring campaign  ");
  draft.message = "  Please look before Friday. ";
  draft.due = "2026-03-20T17:00";
  draft.stages = [
    { ...newStage(), rule: "all", reviewers: [ana, bo] },
    { ...newStage(), rule: "any", reviewers: [outsider] },
  ];
  return draft;
}

describe("the request body", () => {
  it("sends members by id, outsiders by address, stages in order with their rules, the due instant and the lock", () => {
    const body = buildReviewBody(twoStages(), { kind: "assets", assetIds: [ASSET] });
    expect(body).toEqual({
      title: "Spring campaign",
      message: "Please look before Friday.",
      asset_ids: [ASSET],
      due_at: new Date("2026-03-20T17:00").toISOString(),
      stages: [
        { rule: "all", reviewers: [ANA.user_id, BO.user_id] },
        { rule: "any", reviewers: ["client@agency.test"] },
      ],
      lock_on_approval: true,
    });
    // The contract takes it as it is.
    expect(CreateReviewBody.safeParse(body).success).toBe(true);
  });

  it("names a board instead of assets, and leaves out an empty message and due date; the lock may be off", () => {
    const draft = { ...twoStages(), message: "  ", due: "", lock: false };
    const body = buildReviewBody(draft, { kind: "board", boardId: BOARD });
    expect(body).not.toHaveProperty("asset_ids");
    expect(body).not.toHaveProperty("message");
    expect(body).not.toHaveProperty("due_at");
    expect(body.board_id).toBe(BOARD);
    expect(body.lock_on_approval).toBe(false);
    expect(CreateReviewBody.safeParse(body).success).toBe(true);
  });
});

describe("what the dialog refuses before sending", () => {
  it("a draft as filled in has no problem", () => {
    expect(draftProblems(twoStages(), NOW)).toEqual([]);
  });

  it("a missing title, a past due date and a stage without reviewers are each named", () => {
    const draft = { ...twoStages(), title: " ", due: "2026-02-01T09:00" };
    draft.stages = [...draft.stages, newStage()];
    expect(draftProblems(draft, NOW)).toEqual([
      { field: "title", message: "Give the review a title" },
      { field: "due", message: "The due date must be in the future." },
      { field: "stages", stage: 2, message: "A stage needs at least one reviewer" },
    ]);
  });

  it("a reviewer in two stages is named on the later stage", () => {
    const draft = twoStages();
    draft.stages[1]!.reviewers = [outsider, bo];
    expect(draftProblems(draft, NOW)).toEqual([
      { field: "stages", stage: 1, message: "Bo is a reviewer in more than one stage." },
    ]);
  });
});

describe("typed reviewers", () => {
  it("splits addresses, makes a member's address (any case) that member, and leaves what is not an address", () => {
    const { entries, rest } = parseTyped("client@agency.test, BO@example.com; not-an-address <x@y.io>", [ANA, BO]);
    expect(entries).toEqual([outsider, bo, { kind: "email", email: "x@y.io" }]);
    expect(rest).toBe("not-an-address");
  });

  it("adds each reviewer once", () => {
    expect(addEntries([ana, outsider], [{ kind: "email", email: "client@agency.test" }, ana, bo])).toEqual([
      ana,
      outsider,
      bo,
    ]);
  });
});

describe("editing a review: the draft from the review and the body it sends back", () => {
  const reviewer = (over: Partial<Review["stages"][number]["reviewers"][number]>) => ({
    id: "11111111-2222-4333-8444-555555555555",
    stage: 0,
    kind: "member" as const,
    user_id: ANA.user_id,
    name: "Ana",
    email: null,
    waiting: 0,
    asked_at: null,
    link: null,
    ...over,
  });
  // Only what the dialog reads of a review.
  const review = {
    title: "Spring campaign",
    message: "Check the colours",
    due_at: "2026-02-20T17:00:00.000Z",
    lock_on_approval: false,
    stages: [
      { index: 0, rule: "all", state: "done", started_at: null, reviewers: [reviewer({})] },
      {
        index: 1,
        rule: "any",
        state: "active",
        started_at: null,
        reviewers: [
          reviewer({ stage: 1, kind: "external", user_id: null, name: "Pat Outside", email: "pat@example.com" }),
          reviewer({ stage: 1, kind: "external", user_id: null, name: "lee@example.com", email: "lee@example.com" }),
        ],
      },
    ],
  } as unknown as Review;

  it("keeps done stages marked, members by id and outsiders' names; an unchanged past due date is neither checked nor sent", () => {
    const draft = draftFromReview(review);
    expect(draft.stages.map((s) => [s.rule, !!s.done])).toEqual([
      ["all", true],
      ["any", false],
    ]);
    const kept = draft.due;
    // The due date is past (NOW is later), yet left as it was it is no mistake and not sent.
    expect(draftProblems(draft, NOW, kept)).toEqual([]);
    const body = buildUpdateBody(draft, kept);
    expect(UpdateReviewBody.safeParse(body).success).toBe(true);
    expect(body).toEqual({
      title: "Spring campaign",
      message: "Check the colours",
      lock_on_approval: false,
      stages: [
        { rule: "all", reviewers: [ANA.user_id] },
        { rule: "any", reviewers: [{ email: "pat@example.com", name: "Pat Outside" }, "lee@example.com"] },
      ],
    });
  });

  it("a changed due date is checked and sent; cleared, it is sent as none", () => {
    const draft = draftFromReview(review);
    const kept = draft.due;
    const past = { ...draft, due: "2026-02-21T09:00" };
    expect(draftProblems(past, NOW, kept).map((p) => p.field)).toEqual(["due"]);
    const later = { ...draft, due: "2026-04-01T09:00" };
    expect(buildUpdateBody(later, kept).due_at).toBe(new Date("2026-04-01T09:00").toISOString());
    expect(buildUpdateBody({ ...draft, due: "" }, kept).due_at).toBeNull();
  });
});
