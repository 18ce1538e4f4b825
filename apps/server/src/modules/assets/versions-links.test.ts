import {
  type Asset,
  type AssetVersion,
  type Comment,
  type SharedPayload,
  type ShareLink,
  VERSION_MESSAGES,
} from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, requestUrl, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { newVersion, png, processedAsset, processNow, uploadWith } from "./versions.fixture.ts";

/**
 * Versions through share links (issue 29): a link shows the current version only unless its
 * `show_versions` flag is on; then its visitors list the versions, fetch each one's media (signed for
 * the link, checked again when fetched) and read and write each version's comments. Every derived
 * URL handed out while the flag was on stops working once it is off.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
});
afterAll(() => env.close());

const visitor = () => new Client(env.app);
const fetchMedia = (url: string) => requestUrl(env.app, "GET", url);

/** An asset in a board with v1 and v2 (current), a thread on each in the board, a v3 still processing, and its link. */
async function setup() {
  const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
  const c = admin.client;
  const board = (await c.post(`/workspaces/${ws.id}/boards`, { name: "Review" })).json().id as string;
  const v1Bytes = await png("#c02020");
  const v1 = await uploadWith(c, ws.id, { name: "cover.png", board_id: board }, v1Bytes);
  const id = v1.asset_id;
  await processNow(env, id);
  const comment = async (text: string, version_id?: string) => {
    const r = await c.post(`/workspaces/${ws.id}/comments`, {
      content_type: "asset",
      object_id: id,
      board_id: board,
      text,
      ...(version_id ? { version_id } : {}),
    });
    expect(r.statusCode, r.body).toBe(201);
    return r.json() as Comment;
  };
  const onV1 = await comment("v1: crop tighter");
  const v2 = (await newVersion(env, c, ws.id, id, "cover-2.png", await png("#20c020"))).version_id!;
  const onV2 = await comment("v2: better");
  const v3 = (await newVersion(env, c, ws.id, id, "cover-3.png", await png("#2020c0"), { process: false })).version_id!;
  const outside = await processedAsset(env, c, ws.id, "outside.png", await png("#808080"));
  const linkUrl = `/workspaces/${ws.id}/share/asset/${id}?board_id=${board}`;
  const link = (await c.get(linkUrl)).json() as ShareLink;
  const set = async (flags: Record<string, unknown>) => {
    const r = await c.put(`/workspaces/${ws.id}/share/asset/${id}`, { ...flags, board_id: board });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as ShareLink;
  };
  return {
    ws,
    c,
    commenter: members.COMMENTER!.client,
    board,
    id,
    v1,
    v1Bytes,
    v2,
    v3,
    onV1,
    onV2,
    outside,
    link,
    set,
  };
}

describe("a share link and versions", () => {
  it("shows the current version only by default: versions, other versions' comments and media refused", async () => {
    const s = await setup();
    expect(s.link.show_versions).toBe(false);
    const v = visitor();
    const t = s.link.token;
    const payload = (await v.get(`/share/${t}`)).json() as SharedPayload;
    expect(payload.share_settings.show_versions).toBe(false);
    expect(payload.asset).toMatchObject({ current_version: { id: s.v2, number: 2 }, newer_version: null });
    // Only the current version's threads, and only they are counted.
    expect(payload.comments!.map((x) => x.id)).toEqual([s.onV2.id]);
    expect(payload.comments![0]!.version).toEqual({ id: s.v2, number: 2 });
    expect(payload.asset!.open_comment_count).toBe(1);
    const member = (await s.c.get(`/workspaces/${s.ws.id}/assets/${s.id}`)).json() as Asset;
    expect(member).toMatchObject({ open_comment_count: 2, newer_version: { id: s.v3, status: "processing" } });
    expect((await v.get(`/share/${t}/assets/${s.id}`)).json()).toMatchObject({ newer_version: null });

    const refused = [
      await v.get(`/share/${t}/assets/${s.id}/versions`),
      await v.get(`/share/${t}/comments?version_id=${s.id}`),
      await v.get(`/share/${t}/comments?all_versions=true`),
      await v.get(`/share/${t}/comments?parent_id=${s.onV1.id}`),
      await v.post(`/share/${t}/comments`, { text: "on v1", version_id: s.id }),
      // Whatever the id: the answer says nothing about which versions exist.
      await v.get(`/share/${t}/comments?version_id=00000000-0000-4000-8000-000000000000`),
    ];
    for (const r of refused) {
      expect(r.statusCode, r.body).toBe(403);
      expect(r.json().detail).toBe(VERSION_MESSAGES.linkCurrentOnly);
    }
    // The current version named is the default, allowed.
    const current = await v.get(`/share/${t}/comments?version_id=${s.v2}`);
    expect(current.json().results.map((x: Comment) => x.id)).toEqual([s.onV2.id]);
    const posted = await v.post(`/share/${t}/comments`, { text: "fine", version_id: s.v2 });
    expect(posted.statusCode, posted.body).toBe(201);
    expect(posted.json().version).toEqual({ id: s.v2, number: 2 });
  }, 120_000);

  it("with show_versions: lists versions, serves each one's media for the link, reads and writes each one's comments", async () => {
    const s = await setup();
    const on = await s.set({ show_versions: true, allow_downloads: true });
    expect(on).toMatchObject({ show_versions: true, allow_downloads: true });
    const v = visitor();
    const t = s.link.token;
    expect(((await v.get(`/share/${t}`)).json() as SharedPayload).share_settings.show_versions).toBe(true);
    const shown = (await v.get(`/share/${t}/assets/${s.id}`)).json() as Asset;
    expect(shown).toMatchObject({ open_comment_count: 2, newer_version: { id: s.v3, status: "processing" } });

    const res = await v.get(`/share/${t}/assets/${s.id}/versions`);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json() as AssetVersion[];
    expect(list.map((x) => [x.number, x.is_current, x.status, x.comment_count])).toEqual([
      [3, false, "processing", 0],
      [2, true, "COMPLETED", 1],
      [1, false, "COMPLETED", 1],
    ]);
    // No member's name, no other asset.
    for (const x of list) expect(x).toMatchObject({ uploaded_by: null, made_current_by: null, duplicate_of: null });
    const v1 = list.find((x) => x.number === 1)!;
    // Media signed for the link: an older version's thumbnail and its original, byte-identical.
    expect(v1.thumbnail_url).toContain("sig=");
    expect((await fetchMedia(v1.thumbnail_url!)).statusCode).toBe(200);
    const original = await fetchMedia(v1.url!);
    expect(original.statusCode).toBe(200);
    expect(Buffer.compare(original.rawPayload, s.v1Bytes)).toBe(0);

    const ofV1 = (await v.get(`/share/${t}/comments?version_id=${s.id}`)).json();
    expect(ofV1.results.map((x: Comment) => [x.id, x.version?.number])).toEqual([[s.onV1.id, 1]]);
    const all = (await v.get(`/share/${t}/comments?all_versions=true`)).json();
    expect(all.results.map((x: Comment) => x.id).sort()).toEqual([s.onV1.id, s.onV2.id].sort());
    const replies = await v.get(`/share/${t}/comments?parent_id=${s.onV1.id}`);
    expect(replies.statusCode, replies.body).toBe(200);
    const onV1 = await v.post(`/share/${t}/comments`, { text: "v1 was warmer", version_id: s.id, author_name: "Eve" });
    expect(onV1.statusCode, onV1.body).toBe(201);
    expect(onV1.json().version).toEqual({ id: s.id, number: 1 });
    const reply = await v.post(`/share/${t}/comments`, { text: "agreed", parent_id: s.onV1.id });
    expect(reply.json().version).toEqual({ id: s.id, number: 1 });
    // A version that is not there (or another asset's): 404.
    const unknown = await v.get(`/share/${t}/comments?version_id=00000000-0000-4000-8000-000000000000`);
    expect(unknown.statusCode).toBe(404);
    expect((await v.get(`/share/${t}/comments?version_id=${s.outside}`)).statusCode).toBe(404);
    // Another asset than the link's: 404, as for anything the link does not share.
    expect((await v.get(`/share/${t}/assets/${s.outside}/versions`)).statusCode).toBe(404);

    // Turned off again: the URLs handed out for other versions stop working; the current one's stay.
    await s.set({ show_versions: false });
    expect((await fetchMedia(v1.thumbnail_url!)).statusCode).toBe(404);
    expect((await fetchMedia(v1.url!)).statusCode).toBe(404);
    const v2 = list.find((x) => x.number === 2)!;
    expect((await fetchMedia(v2.thumbnail_url!)).statusCode).toBe(200);
    expect((await v.get(`/share/${t}/assets/${s.id}/versions`)).statusCode).toBe(403);
    // Without downloads, no original is handed out at all.
    await s.set({ show_versions: true, allow_downloads: false });
    const noDownloads = (await v.get(`/share/${t}/assets/${s.id}/versions`)).json() as AssetVersion[];
    expect(noDownloads.every((x) => x.url === null)).toBe(true);
    expect((await fetchMedia(v1.url!)).statusCode).toBe(404);
  }, 120_000);

  it("comments per version for members: outsiders 404, a COMMENTER reads and writes any version", async () => {
    const s = await setup();
    const outsider = (await workspaceWith(env)).admin.client;
    const q = `/workspaces/${s.ws.id}/comments?content_type=asset&object_id=${s.id}`;
    expect((await outsider.get(`${q}&version_id=${s.id}`)).statusCode).toBe(404);
    expect((await outsider.get(`${q}&all_versions=true`)).statusCode).toBe(404);
    const byCommenter = await s.commenter.get(`${q}&version_id=${s.id}`);
    expect(byCommenter.json().results.map((x: Comment) => x.id)).toEqual([s.onV1.id]);
    const posted = await s.commenter.post(`/workspaces/${s.ws.id}/comments`, {
      content_type: "asset",
      object_id: s.id,
      text: "v1 again",
      version_id: s.id,
    });
    expect(posted.statusCode, posted.body).toBe(201);
    expect(posted.json().version).toEqual({ id: s.id, number: 1 });
    const download = (c: Client) => c.post(`/workspaces/${s.ws.id}/download`, { asset_ids: [s.id], version_id: s.id });
    expect((await download(outsider)).statusCode).toBe(404);
    expect((await download(s.commenter)).statusCode).toBe(200);
  }, 120_000);
});
