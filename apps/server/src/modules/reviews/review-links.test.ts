import type { Comment, ReviewerPage } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, requestUrl, type TestEnv, uniqueEmail } from "../../../test/harness.ts";
import { createReview, getReview, images, linkOf, team } from "./reviews.fixture.ts";

/**
 * An outside reviewer's personal link (issue 30): the review's page, its assets in the viewer (media
 * signed for the link), comments and annotations under their name, decisions; nothing else of the
 * workspace; the link ends when they are removed and is read-only once the review is canceled.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
});
afterAll(() => env.close());

async function setup() {
  const t = await team(env, { req: "EDITOR", ann: "COMMENTER" });
  const [a, b, other] = await images(env, t.m.req.client, t.ws, 3);
  const guest = uniqueEmail("guest");
  const due = new Date(Date.now() + 3 * 86_400_000).toISOString();
  const review = await createReview(t.m.req.client, t.ws, {
    title: "Packaging",
    message: "Front and back, please.",
    due_at: due,
    asset_ids: [a!, b!],
    stages: [{ rule: "all", reviewers: [t.m.ann.user.id, { email: guest, name: "Gina Guest" }] }],
  });
  const link = linkOf(review, guest);
  const v = new Client(env.app);
  return { ...t, a: a!, b: b!, other: other!, guest, due, review, link, v };
}

describe("an outside reviewer's link", () => {
  it("opens the review's page: its words, the reviewer's name, the assets with media signed for the link", async () => {
    const s = await setup();
    const page = (await s.v.get(`/review/${s.link.token}`)).json() as ReviewerPage;
    expect(page.review).toMatchObject({
      id: s.review.id,
      title: "Packaging",
      message: "Front and back, please.",
      due_at: s.due,
      state: "open",
      requested_by_name: "req User",
      stage_count: 1,
    });
    expect(page.reviewer).toMatchObject({ id: s.link.id, name: "Gina Guest", email: s.guest, can_decide: true });
    expect(page.assets.map((x) => [x.asset.id, x.status, x.awaiting_me, x.asset.approval])).toEqual([
      [s.a, "in_review", true, null],
      [s.b, "in_review", true, null],
    ]);
    const thumb = page.assets[0]!.asset.thumbnail_url!;
    expect(thumb).toContain("sig=");
    expect((await requestUrl(env.app, "GET", thumb)).statusCode).toBe(200);
    // A URL signed for this link names another asset of the workspace: refused.
    const otherDir = (await s.m.req.client.get(`/workspaces/${s.ws}/assets/${s.other}`)).json().directory;
    const forged = await env.rt.signer.sign("GET", `/media/${otherDir}/thumbnail.jpg`, 600, `l.${s.link.id}.0`);
    expect((await requestUrl(env.app, "GET", forged)).statusCode).toBe(404);
    // No original to download, no custom fields, no versions list.
    expect(page.assets[0]!.asset.url).toBeNull();
    expect(page.assets[0]!.asset.abilities).toMatchObject({ download: false, edit: false, comment: true });
  });

  it("comments and annotates under their name; sees the notes and comments made outside boards, not a board's", async () => {
    const s = await setup();
    const post = (body: Record<string, unknown>) => s.v.post(`/review/${s.link.token}/comments`, body);
    const point = await post({ object_id: s.a, text: "The logo sits low", annotation_type: "POINT", x: 40, y: 70 });
    expect(point.statusCode, point.body).toBe(201);
    expect(point.json() as Comment).toMatchObject({ author_display: "Gina Guest", annotation_type: "POINT", x: 40 });
    const reply = await post({ object_id: s.a, text: "(and the barcode)", parent_id: point.json().id });
    expect(reply.statusCode).toBe(201);
    // A member's thread in a board is that board's business; one on the asset itself is shared.
    const board = (await s.m.req.client.post(`/workspaces/${s.ws}/boards`, { name: "Print" })).json().id;
    const member = (text: string, board_id: string | null) =>
      s.m.req.client.post(`/workspaces/${s.ws}/comments`, { content_type: "asset", object_id: s.a, text, board_id });
    await member("Internal: budget talk", board);
    await member("Agreed, move it up", null);
    const seen = (await s.v.get(`/review/${s.link.token}/comments?object_id=${s.a}`)).json();
    expect(seen.results.map((c: Comment) => c.text)).toEqual(["The logo sits low", "Agreed, move it up"]);
    const replies = await s.v.get(`/review/${s.link.token}/comments?object_id=${s.a}&parent_id=${point.json().id}`);
    expect(replies.json().results.map((c: Comment) => c.text)).toEqual(["(and the barcode)"]);
    // Members see the reviewer's comment with their name.
    const all = (await s.m.req.client.get(`/workspaces/${s.ws}/comments?content_type=asset&object_id=${s.a}`)).json();
    expect(all.results.find((c: Comment) => c.text === "The logo sits low")).toMatchObject({
      author_display: "Gina Guest",
    });
  });

  it("decides: the decision and its note are theirs by name; members see them in the review", async () => {
    const s = await setup();
    const res = await s.v.post(`/review/${s.link.token}/decisions`, {
      asset_id: s.b,
      decision: "changes_requested",
      note: "Barcode too small",
    });
    expect(res.statusCode, res.body).toBe(201);
    const page = res.json() as ReviewerPage;
    expect(page.assets[1]).toMatchObject({
      status: "changes_requested",
      awaiting_me: false,
      my_decision: { decision: "changes_requested", note: "Barcode too small" },
      decisions: [{ reviewer_name: "Gina Guest", decision: "changes_requested" }],
    });
    const review = await getReview(s.m.req.client, s.ws, s.review.id);
    expect(review.decisions).toEqual([
      expect.objectContaining({
        reviewer_name: "Gina Guest",
        decision: "changes_requested",
        note: "Barcode too small",
      }),
    ]);
    const note = (await s.m.req.client.get(`/workspaces/${s.ws}/comments?content_type=asset&object_id=${s.b}`)).json();
    expect(note.results).toEqual([
      expect.objectContaining({
        id: review.decisions[0]!.comment_id,
        author_display: "Gina Guest",
        severity: "medium",
      }),
    ]);
  });

  it("removed, the link ends; disabled, it says so; once canceled, the page stays and decisions are refused", async () => {
    const s = await setup();
    const one = `/workspaces/${s.ws}/reviews/${s.review.id}`;
    await s.m.req.client.patch(`${one}/reviewers/${s.link.id}`, { is_active: false });
    const off = await s.v.get(`/review/${s.link.token}`);
    expect(off.statusCode).toBe(403);
    expect(off.json().detail).toBe("Link has expired or is no longer valid");
    await s.m.req.client.patch(`${one}/reviewers/${s.link.id}`, { is_active: true });
    await s.m.req.client.post(`${one}/cancel`);
    const page = (await s.v.get(`/review/${s.link.token}`)).json() as ReviewerPage;
    expect(page.review.state).toBe("canceled");
    expect(page.reviewer.can_decide).toBe(false);
    const refused = await s.v.post(`/review/${s.link.token}/decisions`, { asset_id: s.a, decision: "approved" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe("This review was canceled.");
    await s.m.req.client.post(`${one}/reopen`, {});
    const edit = await s.m.req.client.patch(one, { stages: [{ reviewers: [s.m.ann.user.id] }] });
    expect(edit.statusCode, edit.body).toBe(200);
    const gone = await s.v.get(`/review/${s.link.token}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().detail).toBe("Review link not found.");
  });
});
