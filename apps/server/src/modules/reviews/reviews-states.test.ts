import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, type TestEnv } from "../../../test/harness.ts";
import { createReview, decide, decided, getReview, images, statuses, team, versionOf } from "./reviews.fixture.ts";

/**
 * The state rules (issue 30): `all` and `any`, changes and rejections stopping an asset, deciding
 * again, a new version resetting the asset's decisions, two stages one after the other, the lock on
 * approval and reopening, canceling, editing the stages.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
});
afterAll(() => env.close());

const setup = async () => {
  const t = await team(env, { req: "EDITOR", ann: "COMMENTER", bob: "EDITOR", cat: "COMMENTER" });
  return { ...t, c: t.m.req.client, ann: t.m.ann.client, bob: t.m.bob.client, cat: t.m.cat.client };
};

describe("review states", () => {
  it("all: every reviewer approves; changes stop the asset; deciding again replaces; a new version resets", async () => {
    const s = await setup();
    const [a, b] = await images(env, s.c, s.ws, 2);
    const r = await createReview(s.c, s.ws, {
      title: "All of us",
      asset_ids: [a!, b!],
      stages: [{ rule: "all", reviewers: [s.m.ann.user.id, s.m.bob.user.id] }],
    });
    expect(r).toMatchObject({ state: "open", done: false, active_stage: 0, lock_on_approval: true });
    expect(r.progress).toEqual({ total: 2, approved: 0, changes_requested: 0, rejected: 0, in_review: 2 });
    let now = await decided(s.ann, s.ws, r.id, { asset_id: a!, decision: "approved" });
    expect(statuses(now)).toEqual(["in_review", "in_review"]);
    expect(now.assets[0]!.awaiting).toEqual([now.stages[0]!.reviewers[1]!.id]);
    now = await decided(s.bob, s.ws, r.id, { asset_id: b!, decision: "changes_requested", note: "Warmer, please" });
    expect(statuses(now)).toEqual(["in_review", "changes_requested"]);
    expect(now.state).toBe("changes_requested");
    // The note is a comment on the version decided on, linked from the decision.
    const note = now.decisions.at(-1)!;
    expect(note.comment_id).not.toBeNull();
    const thread = (await s.c.get(`/workspaces/${s.ws}/comments?content_type=asset&object_id=${b}`)).json();
    expect(thread.results).toEqual([
      expect.objectContaining({ id: note.comment_id, text: "Warmer, please", severity: "medium" }),
    ]);
    // Deciding again: the latest counts, the earlier one stays on record.
    await decided(s.ann, s.ws, r.id, { asset_id: a!, decision: "approved_with_changes" });
    now = await decided(s.bob, s.ws, r.id, { asset_id: a!, decision: "approved" });
    expect(statuses(now)).toEqual(["approved_with_changes", "changes_requested"]);
    expect(now.decisions.filter((d) => d.asset_id === a).map((d) => [d.decision, d.counts])).toEqual([
      ["approved", false],
      ["approved_with_changes", true],
      ["approved", true],
    ]);
    // A new version of b: its decisions reset to pending (they name the old version), on record still.
    await versionOf(env, s.c, s.ws, b!);
    now = await getReview(s.c, s.ws, r.id);
    expect(statuses(now)).toEqual(["approved_with_changes", "in_review"]);
    expect(now.assets[1]!.current_version.number).toBe(2);
    expect(now.assets[1]!.cells.map((c) => c.decision)).toEqual([null, null]);
    expect(now.history.at(-1)).toMatchObject({ type: "version", asset_ids: [b] });
    expect(now.state).toBe("open");
    await decided(s.ann, s.ws, r.id, { asset_id: b!, decision: "approved" });
    now = await decided(s.bob, s.ws, r.id, { asset_id: b!, decision: "approved" });
    expect(now).toMatchObject({ state: "approved", done: true });
    // Done twice: every decision in (changes asked for b), then again on b's new version.
    expect(now.history.map((h) => [h.type, h.detail])).toEqual([
      ["created", null],
      ["stage_started", null],
      ["completed", "changes_requested"],
      ["version", expect.stringMatching(/^Version 2 of “.+” became current$/)],
      ["completed", "approved"],
    ]);
    // Decisions are never deleted or changed, not even by hand.
    const del = sql`DELETE FROM review_decisions WHERE review_id = ${r.id}`.execute(env.rt.db);
    await expect(del).rejects.toThrow(/never deleted/);
    const upd = sql`UPDATE review_decisions SET decision = 'rejected' WHERE review_id = ${r.id}`.execute(env.rt.db);
    await expect(upd).rejects.toThrow(/never changed/);
  });

  it("any: one approval approves; a later request for changes stops it again; a stale version is refused", async () => {
    const s = await setup();
    const [a] = await images(env, s.c, s.ws, 1);
    const r = await createReview(s.c, s.ws, {
      title: "Any of us",
      asset_ids: [a!],
      stages: [{ rule: "any", reviewers: [s.m.ann.user.id, s.m.bob.user.id] }],
    });
    let now = await decided(s.ann, s.ws, r.id, { asset_id: a!, decision: "approved" });
    expect(now).toMatchObject({ state: "approved", done: true });
    expect(now.assets[0]).toMatchObject({ status: "approved", locked: true, awaiting: [] });
    now = await decided(s.bob, s.ws, r.id, { asset_id: a!, decision: "rejected", note: "Wrong logo" });
    expect(now).toMatchObject({ state: "rejected", done: true });
    const stale = await decide(s.bob, s.ws, r.id, { asset_id: a!, decision: "approved", version_id: r.id });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail).toBe("A newer version of this asset became current: look at it before deciding.");
  });

  it("two stages: the second is asked once the first is complete for every asset; each stage decides in its turn", async () => {
    const s = await setup();
    const [a, b] = await images(env, s.c, s.ws, 2);
    const r = await createReview(s.c, s.ws, {
      title: "Two stages",
      asset_ids: [a!, b!],
      stages: [
        { rule: "all", reviewers: [s.m.ann.user.id] },
        { rule: "any", reviewers: [s.m.bob.user.id, s.m.cat.user.id] },
      ],
    });
    expect(r.stages.map((x) => x.state)).toEqual(["active", "waiting"]);
    const early = await decide(s.bob, s.ws, r.id, { asset_id: a!, decision: "approved" });
    expect(early.statusCode).toBe(403);
    expect(early.json().detail).toBe("Your stage (2) has not started yet: it starts when stage 1 is done.");
    let now = await decided(s.ann, s.ws, r.id, { asset_id: a!, decision: "approved" });
    expect(now.active_stage).toBe(0);
    expect(statuses(now)).toEqual(["in_review", "in_review"]);
    now = await decided(s.ann, s.ws, r.id, { asset_id: b!, decision: "approved" });
    expect(now.active_stage).toBe(1);
    expect(now.stages.map((x) => x.state)).toEqual(["done", "active"]);
    expect(now.history.filter((h) => h.type === "stage_started").map((h) => h.stage)).toEqual([0, 1]);
    expect(now.assets.map((x) => x.awaiting.length)).toEqual([2, 2]);
    const late = await decide(s.ann, s.ws, r.id, { asset_id: a!, decision: "rejected" });
    expect(late.statusCode).toBe(403);
    expect(late.json().detail).toBe("Your stage is done: the review has moved on.");
    now = await decided(s.cat, s.ws, r.id, { asset_id: a!, decision: "approved" });
    expect(statuses(now)).toEqual(["approved", "in_review"]);
    now = await decided(s.bob, s.ws, r.id, { asset_id: b!, decision: "approved_with_changes" });
    expect(now).toMatchObject({ state: "approved", done: true });
    expect(statuses(now)).toEqual(["approved", "approved_with_changes"]);
  });

  it("lock on approval: no new version, no make-current until reopened; without the lock versions go on", async () => {
    const s = await setup();
    const [a, free] = await images(env, s.c, s.ws, 2);
    const old = await versionOf(env, s.c, s.ws, a!);
    const r = await createReview(s.c, s.ws, {
      title: "Lock",
      asset_ids: [a!],
      stages: [{ reviewers: [s.m.ann.user.id] }],
    });
    await decided(s.ann, s.ws, r.id, { asset_id: a!, decision: "approved" });
    const text =
      "This asset was approved in the review “Lock” and is locked: the requester or an admin can reopen it to change its versions.";
    const upload = await s.c.post(`/workspaces/${s.ws}/assets/upload`, { name: "v3.png", size: 100, version_of: a });
    expect(upload.statusCode).toBe(409);
    expect(upload.json().detail).toBe(text);
    const first = a!; // an asset's first version has the asset's id
    const back = await s.c.post(`/workspaces/${s.ws}/assets/${a}/versions/${first}/current`);
    expect(back.statusCode).toBe(409);
    expect(back.json().detail).toBe(text);
    // Reopened (that asset only), it takes versions again, and is in review on the new one.
    const reopened = await s.c.post(`/workspaces/${s.ws}/reviews/${r.id}/reopen`, { asset_ids: [a] });
    expect(reopened.json()).toMatchObject({ state: "open", done: false });
    expect((await s.c.post(`/workspaces/${s.ws}/assets/${a}/versions/${first}/current`)).statusCode).toBe(200);
    expect(old.version_id).toBeTruthy();
    const again = await getReview(s.c, s.ws, r.id);
    expect(again.assets[0]).toMatchObject({ status: "in_review", locked: false, current_version: { number: 1 } });
    expect(again.history.map((h) => h.type)).toEqual(["created", "stage_started", "completed", "reopened", "version"]);
    // A review that does not lock lets versions come while approved.
    const open = await createReview(s.c, s.ws, {
      title: "No lock",
      asset_ids: [free!],
      lock_on_approval: false,
      stages: [{ reviewers: [s.m.ann.user.id] }],
    });
    await decided(s.ann, s.ws, open.id, { asset_id: free!, decision: "approved" });
    await versionOf(env, s.c, s.ws, free!);
    expect(statuses(await getReview(s.c, s.ws, open.id))).toEqual(["in_review"]);
  });

  it("cancel: no decisions; the asset's approval forgets it; reopen resumes with the decisions made", async () => {
    const s = await setup();
    const [a, b] = await images(env, s.c, s.ws, 2);
    const r = await createReview(s.c, s.ws, {
      title: "Cancel me",
      asset_ids: [a!, b!],
      stages: [{ reviewers: [s.m.ann.user.id] }],
    });
    await decided(s.ann, s.ws, r.id, { asset_id: a!, decision: "approved" });
    const canceled = (await s.c.post(`/workspaces/${s.ws}/reviews/${r.id}/cancel`)).json();
    expect(canceled).toMatchObject({ state: "canceled", done: false, abilities: { cancel: false, reopen: true } });
    const refused = await decide(s.ann, s.ws, r.id, { asset_id: b!, decision: "approved" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe("This review was canceled.");
    expect((await s.c.get(`/workspaces/${s.ws}/assets/${a}`)).json().approval).toBeNull();
    const resumed = (await s.c.post(`/workspaces/${s.ws}/reviews/${r.id}/reopen`, {})).json();
    expect(statuses(resumed)).toEqual(["approved", "in_review"]);
    expect((await s.c.get(`/workspaces/${s.ws}/assets/${a}`)).json().approval).toMatchObject({
      review_id: r.id,
      status: "approved",
    });
    expect(resumed.history.map((h: { type: string }) => h.type)).toEqual([
      "created",
      "stage_started",
      "canceled",
      "reopened",
    ]);
  });

  it("editing stages: the active stage gains and loses reviewers; a done stage cannot change", async () => {
    const s = await setup();
    const [a] = await images(env, s.c, s.ws, 1);
    const r = await createReview(s.c, s.ws, {
      title: "Edit",
      asset_ids: [a!],
      stages: [{ reviewers: [s.m.ann.user.id] }, { reviewers: [s.m.bob.user.id] }],
    });
    const patch = (body: Record<string, unknown>) => s.c.patch(`/workspaces/${s.ws}/reviews/${r.id}`, body);
    let res = await patch({
      stages: [{ reviewers: [s.m.ann.user.id, s.m.cat.user.id] }, { reviewers: [s.m.bob.user.id] }],
    });
    expect(res.statusCode, res.body).toBe(200);
    await decided(s.ann, s.ws, r.id, { asset_id: a!, decision: "approved" });
    let now = await getReview(s.c, s.ws, r.id);
    expect(now.active_stage).toBe(0); // cat is asked too now
    expect(now.assets[0]!.awaiting).toEqual([now.stages[0]!.reviewers[1]!.id]);
    res = await patch({ stages: [{ reviewers: [s.m.ann.user.id] }, { reviewers: [s.m.bob.user.id] }] });
    now = res.json();
    expect(now.active_stage).toBe(1); // without cat, stage 1 is complete
    expect(now.history.filter((h) => h.type === "edited").length).toBe(2);
    res = await patch({ stages: [{ reviewers: [s.m.cat.user.id] }, { reviewers: [s.m.bob.user.id] }] });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe("Stage 1 is done and can no longer change.");
    res = await patch({ stages: [{ reviewers: [s.m.ann.user.id] }] });
    expect(res.json().detail).toBe("The active stage cannot be removed.");
  });

  it("the record outlives a note's comment; a workspace's purge takes its reviews along; outsiders are invited within a limit", async () => {
    const s = await setup();
    const [a] = await images(env, s.c, s.ws, 1);
    const r = await createReview(s.c, s.ws, {
      title: "Kept",
      asset_ids: [a!],
      stages: [{ reviewers: [s.m.ann.user.id] }],
    });
    const now = await decided(s.ann, s.ws, r.id, { asset_id: a!, decision: "changes_requested", note: "Too dark" });
    const commentId = now.decisions[0]!.comment_id!;
    expect((await s.ann.del(`/workspaces/${s.ws}/comments/${commentId}`)).statusCode).toBe(200);
    const after = await getReview(s.c, s.ws, r.id);
    expect(after.decisions).toEqual([expect.objectContaining({ note: "Too dark", comment_id: null, counts: true })]);
    // Too many reviews inviting outsiders from one member in an hour: 429 with its text.
    await env.rt.db
      .insertInto("rate_limits")
      .values({ key: `review-invite:acct:${s.m.req.user.id}`, count: 30, window_start: new Date() })
      .execute();
    const many = await s.c.post(`/workspaces/${s.ws}/reviews`, {
      title: "Spam",
      asset_ids: [a],
      stages: [{ reviewers: ["someone@example.test"] }],
    });
    expect(many.statusCode).toBe(429);
    expect(many.json().detail).toBe("Too many outside reviewers invited. Try again later.");
    // Members only: no limit.
    await createReview(s.c, s.ws, { title: "Fine", asset_ids: [a!], stages: [{ reviewers: [s.m.ann.user.id] }] });
    await sql`DELETE FROM workspaces WHERE id = ${s.ws}`.execute(env.rt.db);
    const left = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM review_decisions WHERE review_id = ${r.id}`.execute(env.rt.db);
    expect(left.rows[0]!.n).toBe(0);
  });
});
