import type { ShareLink } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, signedInUser, type TestEnv } from "../../../test/harness.ts";
import { facesOf, groupNow, peopleOf, peopleWorkspace, personOfFace, scanNow } from "./people.fixture.ts";

/**
 * People (issue 32), who may do what: outsiders get 404 on every call, a COMMENTER looks but cannot
 * rename, merge or move, only an ADMIN turns recognition off, which deletes every face at once;
 * share-link visitors never receive faces or people.
 */
let env: TestEnv;
let s: Awaited<ReturnType<typeof peopleWorkspace>>;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0", FACES: "1" }, { work: false });
  s = await peopleWorkspace(env);
}, 240_000);
afterAll(() => env?.close());

/** Every people route, for one workspace, person and face. */
const calls = (ws: string, person: string, face: string, asset: string, other: string) =>
  [
    ["GET", `/workspaces/${ws}/people`, undefined],
    ["PATCH", `/workspaces/${ws}/people/${person}`, { name: "Eve" }],
    ["POST", `/workspaces/${ws}/people/${person}/merge`, { person_ids: [other] }],
    ["GET", `/workspaces/${ws}/people/${person}/faces`, undefined],
    ["PATCH", `/workspaces/${ws}/faces/${face}`, { person_id: null }],
    ["GET", `/workspaces/${ws}/assets/${asset}/faces`, undefined],
    ["GET", `/workspaces/${ws}/people/settings`, undefined],
    ["PUT", `/workspaces/${ws}/people/settings`, { enabled: false }],
  ] as const;

describe("who may see and change people", () => {
  it("answers 404 to an outsider on every call, and 403 to a COMMENTER who renames, merges or moves", async () => {
    const c = s.admin.client;
    const a = (await personOfFace(c, s.ws, s.group, s.groupFaces[0]!.id))!;
    const b = (await personOfFace(c, s.ws, s.group, s.groupFaces[1]!.id))!;
    const face = s.groupFaces[0]!.id;
    const outsider = (await signedInUser(env)).client;
    for (const [method, url, body] of calls(s.ws, a, face, s.group, b)) {
      const res = await outsider.request(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    // A member of another workspace naming this one's person or face from their own: 404 too.
    const other = await peopleWorkspace(env);
    const oc = other.admin.client;
    expect((await oc.patch(`/workspaces/${other.ws}/people/${a}`, { name: "Eve" })).statusCode).toBe(404);
    expect((await oc.patch(`/workspaces/${other.ws}/faces/${face}`, { person_id: null })).statusCode).toBe(404);
    expect((await oc.get(`/workspaces/${other.ws}/assets/${s.group}/faces`)).statusCode).toBe(404);
    const theirs = (await personOfFace(oc, other.ws, other.group, other.groupFaces[0]!.id))!;
    const cross = await c.post(`/workspaces/${s.ws}/people/${a}/merge`, { person_ids: [theirs] });
    expect(cross.statusCode).toBe(422);

    const commenter = s.members.COMMENTER!.client;
    expect((await commenter.patch(`/workspaces/${s.ws}/people/${a}`, { name: "Eve" })).statusCode).toBe(403);
    expect((await commenter.post(`/workspaces/${s.ws}/people/${a}/merge`, { person_ids: [b] })).statusCode).toBe(403);
    expect((await commenter.patch(`/workspaces/${s.ws}/faces/${face}`, { person_id: null })).statusCode).toBe(403);
    expect((await commenter.patch(`/workspaces/${s.ws}/faces/${face}`, { name: "Eve" })).statusCode).toBe(403);
    expect((await commenter.put(`/workspaces/${s.ws}/people/settings`, { enabled: false })).statusCode).toBe(403);
    expect((await commenter.get(`/workspaces/${s.ws}/people/${a}/faces`)).statusCode).toBe(200);
    expect((await facesOf(commenter, s.ws, s.group)).data).toHaveLength(3);
    // An EDITOR renames, but only an ADMIN turns recognition off.
    const editor = s.members.EDITOR!.client;
    expect((await editor.patch(`/workspaces/${s.ws}/people/${a}`, { name: "Eve" })).statusCode).toBe(200);
    expect((await editor.put(`/workspaces/${s.ws}/people/settings`, { enabled: false })).statusCode).toBe(403);
    expect((await peopleOf(c, s.ws)).data.find((p) => p.id === a)?.name).toBe("Eve");
  });

  it("gives share-link visitors no faces and no people", async () => {
    const c = s.admin.client;
    const board = (await c.post(`/workspaces/${s.ws}/boards`, { name: "Party" })).json().id as string;
    expect((await c.post(`/workspaces/${s.ws}/boards/${board}/assets`, { asset_ids: [s.group] })).statusCode).toBe(200);
    const link = (await c.put(`/workspaces/${s.ws}/share/board/${board}`, { is_active: true })).json() as ShareLink;
    const v = new Client(env.app);
    const listed = await v.get(`/share/${link.token}/assets`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.body).not.toMatch(/"faces"|"people"|"person"/);
    const asset = await v.get(`/share/${link.token}/assets/${s.group}`);
    expect(asset.statusCode, asset.body).toBe(200);
    expect(asset.body).not.toMatch(/"faces"|"people"|"person"/);
    // The members' routes are closed to a visitor.
    for (const [method, url, body] of calls(s.ws, s.groupFaces[0]!.id, s.groupFaces[0]!.id, s.group, s.group)) {
      const res = await v.request(method, url, body);
      expect([401, 403, 404], `${method} ${url}`).toContain(res.statusCode);
    }
  });
});

describe("the privacy switch", () => {
  it("deletes every face, descriptor and person at once, stops detection, and starts again when turned on", async () => {
    const c = s.admin.client;
    expect((await env.rt.services.people.counts(s.ws)).faces).toBeGreaterThan(5);
    const settings = await s.members.COMMENTER!.client.get(`/workspaces/${s.ws}/people/settings`);
    expect(settings.json()).toEqual({ enabled: true });
    const off = await c.put(`/workspaces/${s.ws}/people/settings`, { enabled: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ enabled: false });
    expect(await env.rt.services.people.counts(s.ws)).toEqual({ faces: 0, people: 0, scans: 0 });
    expect(await peopleOf(c, s.ws)).toEqual({ data: [], enabled: false });
    expect((await c.get(`/workspaces/${s.ws}/people/settings`)).json()).toEqual({ enabled: false });
    expect(await facesOf(c, s.ws, s.group)).toEqual({ data: [], enabled: false, scanned: false });
    expect((await c.post(`/workspaces/${s.ws}/assets`, { people: { includes: [s.group] } })).json().data).toEqual([]);
    // Detection stops: the job and the grouping do nothing while it is off.
    await scanNow(env, s.group);
    await groupNow(env, s.ws);
    expect(await env.rt.services.people.counts(s.ws)).toEqual({ faces: 0, people: 0, scans: 0 });
    // On again: the versions never looked at are found by the backfill and looked at.
    expect((await c.put(`/workspaces/${s.ws}/people/settings`, { enabled: true })).statusCode).toBe(200);
    expect(await env.rt.services.people.unscanned("00000000-0000-0000-0000-000000000000", 1000)).toContain(s.group);
    await scanNow(env, s.group);
    expect((await facesOf(c, s.ws, s.group)).data).toHaveLength(3);
    // Bad input: a clear 422.
    expect((await c.put(`/workspaces/${s.ws}/people/settings`, { enabled: "no" })).statusCode).toBe(422);
  });
});
