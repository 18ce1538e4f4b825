import type { Review } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, type TestEnv, uniqueEmail, workspaceWith } from "../../../test/harness.ts";
import { createReview, images, linkOf, team } from "./reviews.fixture.ts";

/**
 * Who may do what with reviews (issue 30): the requester, an ADMIN, a reviewer who is a member (a
 * COMMENTER is enough), a member who is not a reviewer, a COMMENTER, an outsider, an outside
 * reviewer's link, and a link of another review.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
});
afterAll(() => env.close());

async function setup() {
  const t = await team(env, { req: "EDITOR", rev: "COMMENTER", other: "EDITOR", viewer: "COMMENTER" });
  const [a, b, c] = await images(env, t.m.req.client, t.ws, 3);
  const guest = uniqueEmail("guest");
  const review = await createReview(t.m.req.client, t.ws, {
    title: "Spring campaign",
    asset_ids: [a!, b!],
    stages: [{ rule: "all", reviewers: [t.m.rev.user.id, guest] }],
  });
  const otherGuest = uniqueEmail("other-guest");
  const another = await createReview(t.m.req.client, t.ws, {
    title: "Another",
    asset_ids: [c!],
    stages: [{ reviewers: [otherGuest] }],
  });
  const outsider = (await workspaceWith(env)).admin.client;
  return { ...t, a: a!, b: b!, c: c!, review, another, guest, otherGuest, outsider };
}

describe("reviews: the permission matrix", () => {
  it("members' routes: requester and ADMIN manage, the reviewer decides, other members read, outsiders find nothing", async () => {
    const s = await setup();
    const { ws, review, a } = s;
    const base = `/workspaces/${ws}/reviews`;
    const one = `${base}/${review.id}`;
    const guestLink = linkOf(review, s.guest);
    const callers = {
      requester: s.m.req.client,
      admin: s.admin.client,
      reviewer: s.m.rev.client,
      member: s.m.other.client,
      commenter: s.m.viewer.client,
      outsider: s.outsider,
    };
    type Who = keyof typeof callers;
    const expectAll = async (call: (c: Client) => Promise<{ statusCode: number }>, want: Record<Who, number>) => {
      const got: Record<string, number> = {};
      for (const [who, c] of Object.entries(callers)) got[who] = (await call(c)).statusCode;
      expect(got).toEqual(want);
    };
    const body = { title: "New one", asset_ids: [a], stages: [{ reviewers: [s.m.rev.user.id] }] };
    await expectAll((c) => c.post(base, body), {
      requester: 201,
      admin: 201,
      reviewer: 403,
      member: 201,
      commenter: 403,
      outsider: 404,
    });
    const reads = { requester: 200, admin: 200, reviewer: 200, member: 200, commenter: 200, outsider: 404 };
    await expectAll((c) => c.get(base), reads);
    await expectAll((c) => c.get(one), reads);
    await expectAll((c) => c.get(`${one}/report?format=csv`), reads);
    const manage = { requester: 200, admin: 200, reviewer: 403, member: 403, commenter: 403, outsider: 404 };
    await expectAll((c) => c.patch(one, { message: "Please look by Friday" }), manage);
    await expectAll((c) => c.patch(`${one}/reviewers/${guestLink.id}`, { name: "Guest Reviewer" }), manage);
    await expectAll((c) => c.post(`${one}/cancel`), manage);
    await expectAll((c) => c.post(`${one}/reopen`, {}), manage);
    // Deciding: a reviewer of the active stage only (a COMMENTER here); the requester is not one.
    await expectAll((c) => c.post(`${one}/decisions`, { asset_id: a, decision: "approved" }), {
      requester: 403,
      admin: 403,
      reviewer: 201,
      member: 403,
      commenter: 403,
      outsider: 404,
    });
    const refused = await s.m.other.client.post(`${one}/decisions`, { asset_id: a, decision: "approved" });
    expect(refused.json().detail).toBe("Only a reviewer of the review's active stage can decide.");
    const notYours = await s.m.other.client.patch(one, { title: "Mine now" });
    expect(notYours.json().detail).toBe("Only the requester or an admin can change this review.");
  });

  it("answers say what the caller may do; the outside reviewers' links are shown to those who manage only", async () => {
    const s = await setup();
    const view = async (c: Client) => (await c.get(`/workspaces/${s.ws}/reviews/${s.review.id}`)).json() as Review;
    const asRequester = await view(s.m.req.client);
    expect(asRequester.abilities).toEqual({ edit: true, cancel: true, reopen: true, decide: false });
    expect(linkOf(asRequester, s.guest).token.length).toBeGreaterThanOrEqual(43);
    expect((await view(s.admin.client)).abilities.edit).toBe(true);
    const asReviewer = await view(s.m.rev.client);
    expect(asReviewer.abilities).toEqual({ edit: false, cancel: false, reopen: false, decide: true });
    expect(asReviewer.me).toMatchObject({ stage: 0, waiting: [s.a, s.b] });
    expect(asReviewer.stages[0]!.reviewers.every((r) => r.link === null)).toBe(true);
    const asMember = await view(s.m.other.client);
    expect(asMember.abilities.decide).toBe(false);
    expect(asMember.me).toEqual({ reviewer_id: null, stage: null, waiting: [] });
  });

  it("an outside reviewer's link opens its review's assets only; a link of another review opens none of them", async () => {
    const s = await setup();
    const mine = linkOf(s.review, s.guest).token;
    const theirs = linkOf(s.another, s.otherGuest).token;
    const v = new Client(s.outsider.app);
    const page = await v.get(`/review/${mine}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers["x-robots-tag"]).toBe("noindex");
    expect(page.json().assets.map((x: { asset: { id: string } }) => x.asset.id)).toEqual([s.a, s.b]);
    expect((await v.get(`/review/${mine}/assets/${s.a}`)).statusCode).toBe(200);
    expect((await v.get(`/review/${mine}/comments?object_id=${s.a}`)).statusCode).toBe(200);
    // Another asset of the same workspace, and the other review's asset: not found.
    for (const [token, asset] of [
      [mine, s.c],
      [theirs, s.a],
    ] as const) {
      expect((await v.get(`/review/${token}/assets/${asset}`)).statusCode).toBe(404);
      expect((await v.get(`/review/${token}/comments?object_id=${asset}`)).statusCode).toBe(404);
      const comment = await v.post(`/review/${token}/comments`, { object_id: asset, text: "Looks off" });
      expect(comment.statusCode).toBe(404);
      const decision = await v.post(`/review/${token}/decisions`, { asset_id: asset, decision: "approved" });
      expect(decision.statusCode).toBe(404);
    }
    // The token is no session: members' routes stay shut; nor is it a share link.
    expect((await v.get(`/workspaces/${s.ws}/reviews/${s.review.id}`)).statusCode).toBe(401);
    expect((await v.get(`/share/${mine}`)).statusCode).toBe(404);
    const decision = await v.post(`/review/${mine}/decisions`, { asset_id: s.a, decision: "approved" });
    expect(decision.statusCode, decision.body).toBe(201);
  });

  it("bad input: 422 with a detail on every route that takes a body", async () => {
    const s = await setup();
    const one = `/workspaces/${s.ws}/reviews/${s.review.id}`;
    const token = linkOf(s.review, s.guest).token;
    const c = s.m.req.client;
    const v = new Client(env.app);
    const cases: Array<[string, Promise<{ statusCode: number; json(): { detail?: string } }>]> = [
      ["create: no stages", c.post(`/workspaces/${s.ws}/reviews`, { title: "x", asset_ids: [s.a], stages: [] })],
      ["create: both", c.post(`/workspaces/${s.ws}/reviews`, { title: "x", stages: [{ reviewers: [s.guest] }] })],
      [
        "create: not an address",
        c.post(`/workspaces/${s.ws}/reviews`, { title: "x", asset_ids: [s.a], stages: [{ reviewers: ["nobody"] }] }),
      ],
      ["update: nothing", c.patch(one, {})],
      ["reopen: not ids", c.post(`${one}/reopen`, { asset_ids: ["x"] })],
      ["decide: no such decision", s.m.rev.client.post(`${one}/decisions`, { asset_id: s.a, decision: "maybe" })],
      ["reviewer: nothing", c.patch(`${one}/reviewers/${linkOf(s.review, s.guest).id}`, {})],
      ["link comment: no text", v.post(`/review/${token}/comments`, { object_id: s.a, text: "" })],
      ["link decide: no asset", v.post(`/review/${token}/decisions`, { decision: "approved" })],
    ];
    for (const [what, res] of cases) {
      const r = await res;
      expect(r.statusCode, what).toBe(422);
      expect(r.json().detail, what).toBeTruthy();
    }
    // Checked by the service: a member id that is no member, one person in two stages, a past due date.
    const stranger = (await workspaceWith(env)).admin.user.id;
    const notMember = await c.post(`/workspaces/${s.ws}/reviews`, {
      title: "x",
      asset_ids: [s.a],
      stages: [{ reviewers: [stranger] }],
    });
    expect(notMember.statusCode).toBe(422);
    expect(notMember.json().errors).toEqual([
      { field: "stages.0.reviewers.0", message: "Reviewers given by id must be members of this workspace." },
    ]);
    const twice = await c.post(`/workspaces/${s.ws}/reviews`, {
      title: "x",
      asset_ids: [s.a],
      stages: [{ reviewers: [s.guest] }, { reviewers: [s.guest.toUpperCase()] }],
    });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().detail).toBe(`${s.guest} is a reviewer in more than one stage.`);
    const past = await c.post(`/workspaces/${s.ws}/reviews`, {
      title: "x",
      asset_ids: [s.a],
      due_at: new Date(Date.now() - 60_000).toISOString(),
      stages: [{ reviewers: [s.guest] }],
    });
    expect(past.statusCode).toBe(422);
    expect(past.json().detail).toBe("The due date must be in the future.");
  });
});
