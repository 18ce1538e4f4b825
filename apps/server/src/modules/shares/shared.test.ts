import { Writable } from "node:stream";
import type { Asset, SharedPayload, ShareLink } from "@hangar/contract";
import { pino } from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  createTestEnv,
  requestUrl,
  type TestEnv,
  uploadBytes,
  waitForAsset,
  workspaceWith,
} from "../../../test/harness.ts";
import { VISITOR_WRITES } from "./public-service.ts";

let env: TestEnv;
const logLines: string[] = [];
beforeAll(async () => {
  // Every log line at every level, to prove no password ever reaches the log.
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  env = await createTestEnv({}, { log: pino({ level: "trace" }, sink) });
});
afterAll(() => env.close());

const jpeg = (r: number, g: number, b: number) =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: { r, g, b } } })
    .jpeg()
    .toBuffer();

/** A workspace with a board "Launch" (sub-board "Stills"), two processed pictures in it, one in the sub-board, one outside. */
async function setup() {
  const w = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
  const c = w.admin.client;
  const ws = w.ws.id as string;
  const board = (await c.post(`/workspaces/${ws}/boards`, { name: "Launch" })).json().id as string;
  const sub = (await c.post(`/workspaces/${ws}/boards`, { name: "Stills", parent_id: board })).json().id as string;
  const other = (await c.post(`/workspaces/${ws}/boards`, { name: "Private" })).json().id as string;
  const a1 = await uploadBytes(c, ws, "hero.jpg", await jpeg(200, 30, 30), board);
  const a2 = await uploadBytes(c, ws, "alt.jpg", await jpeg(30, 200, 30), board);
  const a3 = await uploadBytes(c, ws, "still.jpg", await jpeg(30, 30, 200), sub);
  const secret = await uploadBytes(c, ws, "secret.jpg", await jpeg(90, 90, 90), other);
  for (const id of [a1, a2, a3, secret]) expect((await waitForAsset(c, ws, id)).status).toBe("COMPLETED");
  return { ...w, ws, board, sub, other, a1, a2, a3, secret };
}

const share = async (c: Client, ws: string, path: string, body?: Record<string, unknown>) => {
  const res = body
    ? await c.put(`/workspaces/${ws}/share/${path}`, body)
    : await c.get(`/workspaces/${ws}/share/${path}`);
  expect(res.statusCode).toBe(200);
  return res.json() as ShareLink;
};
const visitor = () => new Client(env.app);
const get = (c: Client, url: string, password?: string) =>
  c.request("GET", url, undefined, password ? { headers: { "x-share-password": password } } : {});
const fetchMedia = (url: string) => requestUrl(env.app, "GET", url);

describe("share links, the visitor's side", () => {
  it("unknown tokens answer 404 in the same shape; HEAD validates without a body", async () => {
    const { ws, admin, board } = await setup();
    const link = await share(admin.client, ws, `board/${board}`);
    expect(link.token.length).toBeGreaterThanOrEqual(43); // ≥ 256 bits, base64url
    const v = visitor();
    const unknown = await get(v, `/share/${"x".repeat(43)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: "Share link not found.", code: "NOT_FOUND" });
    // Any other miss (a short or odd token) answers exactly the same.
    expect((await get(v, "/share/abc")).json()).toEqual(unknown.json());
    const head = await v.request("HEAD", `/share/${link.token}`);
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe("");
    expect((await v.request("HEAD", `/share/${"y".repeat(43)}`)).statusCode).toBe(404);
  });

  it("a board link shows its subtree only: sub-boards to browse, assets paged, nothing from outside", async () => {
    const { ws, admin, board, sub, other, a1, a2, a3, secret } = await setup();
    const link = await share(admin.client, ws, `board/${board}`);
    const v = visitor();
    const payload = (await get(v, `/share/${link.token}`)).json() as SharedPayload;
    expect(payload.share_settings).toMatchObject({
      content_type: "board",
      allow_commenting: true,
      allow_downloads: false,
    });
    expect(payload.board).toMatchObject({
      id: board,
      name: "Launch",
      path: [],
      children: [{ id: sub, name: "Stills" }],
    });
    const page = (await get(v, `/share/${link.token}/assets?page_size=10`)).json();
    expect(page.data.map((a: Asset) => a.id).sort()).toEqual([a1, a2].sort());
    const deeper = (await get(v, `/share/${link.token}/assets?board_id=${sub}`)).json();
    expect(deeper.data.map((a: Asset) => a.id)).toEqual([a3]);
    expect((await get(v, `/share/${link.token}/board?board_id=${sub}`)).json()).toMatchObject({
      name: "Stills",
      path: [{ id: board, name: "Launch" }],
    });
    // Outside the subtree: the board, its assets and the asset itself are not there.
    expect((await get(v, `/share/${link.token}/board?board_id=${other}`)).statusCode).toBe(404);
    expect((await get(v, `/share/${link.token}/assets?board_id=${other}`)).statusCode).toBe(404);
    expect((await get(v, `/share/${link.token}/assets/${secret}`)).statusCode).toBe(404);
    // Members' routes stay closed to the visitor.
    expect((await get(v, `/workspaces/${ws}/assets/${a1}`)).statusCode).toBe(401);
    expect((await admin.client.get(`/workspaces/${ws}/share-links`)).json()[0]).toMatchObject({
      content_name: "Launch",
      activity: expect.arrayContaining([expect.objectContaining({ kind: "open", count: 1 })]),
    });
  });

  it("renditions are signed for the link and stop at once when it is disabled, expired, or the asset leaves", async () => {
    const { ws, admin, board, other, a1, a2 } = await setup();
    const c = admin.client;
    await share(c, ws, `board/${board}`);
    const link = await share(c, ws, `board/${board}`, {});
    const v = visitor();
    const assets = (await get(v, `/share/${link.token}/assets`)).json().data as Asset[];
    const hero = assets.find((a) => a.id === a1)!;
    const alt = assets.find((a) => a.id === a2)!;
    expect(hero.thumbnail_url).toMatch(/sig=.*by=l\./);
    expect(hero.url).toBeNull(); // no downloads: no original handed out
    expect((await fetchMedia(hero.thumbnail_url!)).statusCode).toBe(200);
    // A session-less fetch of the bare path (no signature) is nothing.
    expect((await fetchMedia(hero.thumbnail_url!.split("?")[0]!)).statusCode).toBe(404);

    // Moved out of the shared board: gone from the link at once, its URL too.
    await c.post(`/workspaces/${ws}/assets/move`, { asset_ids: [a2], destination_id: other });
    const moved = await c.get(`/workspaces/${ws}/assets/${a2}`);
    expect(moved.json().boards.map((b: { id: string }) => b.id)).toEqual([other]);
    expect((await get(v, `/share/${link.token}/assets/${a2}`)).statusCode).toBe(404);
    expect((await fetchMedia(alt.thumbnail_url!)).statusCode).toBe(404);

    // Disabled: 403 on the payload and on the URL it handed out.
    await share(c, ws, `board/${board}`, { is_active: false });
    const off = await get(v, `/share/${link.token}`);
    expect(off.statusCode).toBe(403);
    expect(off.json().detail).toBe("Link has expired or is no longer valid");
    expect((await fetchMedia(hero.thumbnail_url!)).statusCode).toBe(403);
    // Back on, then expired.
    await share(c, ws, `board/${board}`, { is_active: true });
    expect((await fetchMedia(hero.thumbnail_url!)).statusCode).toBe(200);
    // (Through the API: links are read from the read cache, which hears a change made elsewhere only
    // within a moment; link-cache.test.ts covers those.)
    await share(c, ws, `board/${board}`, { expires_at: new Date(Date.now() - 1000).toISOString() });
    expect((await get(v, `/share/${link.token}`)).statusCode).toBe(403);
    expect((await fetchMedia(hero.thumbnail_url!)).statusCode).toBe(403);
    // Deleted link: unknown token, dead URLs.
    await c.del(`/workspaces/${ws}/share/board/${board}`);
    expect((await get(v, `/share/${link.token}`)).statusCode).toBe(404);
    expect((await fetchMedia(hero.thumbnail_url!)).statusCode).toBe(404);
  });

  it("a password: 401 before, 200 after (then by the link's cookie), 401 again once it changes, URLs included; never logged", async () => {
    const { ws, admin, board, a1 } = await setup();
    const c = admin.client;
    const link = await share(c, ws, `board/${board}`, { password: "Tr0ub4dor&3-share" });
    const v = visitor();
    const first = await get(v, `/share/${link.token}`);
    expect(first.statusCode).toBe(401);
    expect(first.json()).toMatchObject({ detail: "Password required", code: "SHARE_PASSWORD_REQUIRED" });
    expect((await get(v, `/share/${link.token}`, "wrong")).json().detail).toBe("Incorrect password");
    const ok = await get(v, `/share/${link.token}`, "Tr0ub4dor&3-share");
    expect(ok.statusCode).toBe(200);
    const cookie = ok.cookies.find((k) => k.name === "hangar_share")!;
    expect(cookie).toMatchObject({ httpOnly: true, path: `/api/v1/share/${link.token}` });
    // The cookie carries the unlock; no header needed now.
    const asset = (await get(v, `/share/${link.token}/assets/${a1}`)).json() as Asset;
    expect((await fetchMedia(asset.thumbnail_url!)).statusCode).toBe(200);
    // A new password ends the unlock and every URL it issued.
    await share(c, ws, `board/${board}`, { password: "a-second-secret" });
    expect((await get(v, `/share/${link.token}`)).statusCode).toBe(401);
    expect((await fetchMedia(asset.thumbnail_url!)).statusCode).toBe(401);
    expect((await get(v, `/share/${link.token}`, "a-second-secret")).statusCode).toBe(200);
    const log = logLines.join("");
    expect(log.length).toBeGreaterThan(1000);
    expect(log).not.toContain("Tr0ub4dor");
    expect(log).not.toContain("a-second-secret");
  });

  it("a link preview shows an open link's name and thumbnail, and nothing behind a password", async () => {
    const { ws, admin, board } = await setup();
    const link = await share(admin.client, ws, `board/${board}`);
    const preview = async () => {
      const visit = await env.rt.services.shareVisitors.resolve({
        token: link.token,
        password: undefined,
        credential: undefined,
        ip: "10.9.9.9",
      });
      return env.rt.services.shared.preview(visit);
    };
    const open = await preview();
    expect(open?.title).toBe("Launch");
    expect(open?.image).toMatch(/thumbnail\.jpg\?exp=.*by=l\./);
    expect((await fetchMedia(open!.image!)).statusCode).toBe(200);
    await share(admin.client, ws, `board/${board}`, { password: "hidden-preview" });
    await expect(preview()).rejects.toMatchObject({ code: "SHARE_PASSWORD_REQUIRED" });
  });

  it("wrong passwords are throttled per address (429, Retry-After) without holding out the right one elsewhere", async () => {
    const { ws, admin, board } = await setup();
    const link = await share(admin.client, ws, `board/${board}`, { password: "right-one" });
    const guesser = visitor();
    for (let i = 0; i < 5; i++) expect((await get(guesser, `/share/${link.token}`, `guess-${i}`)).statusCode).toBe(401);
    const held = await get(guesser, `/share/${link.token}`, "right-one");
    expect(held.statusCode).toBe(429);
    expect(Number(held.headers["retry-after"])).toBeGreaterThan(0);
    expect((await get(visitor(), `/share/${link.token}`, "right-one")).statusCode).toBe(200);
  });

  it("each flag against each visitor action; visitors' comments and field edits carry their name or Anonymous", async () => {
    const { ws, admin, board, a1 } = await setup();
    const c = admin.client;
    const field = (await c.post(`/workspaces/${ws}/fields`, { title: "Status", field_type: "SINGLE_SELECT" })).json();
    const opt = (
      await c.post(`/workspaces/${ws}/custom-fields/${field.id}/options`, { label: "Approved", color: "#2f9e44" })
    ).json();
    const link = await share(c, ws, `asset/${a1}?board_id=${board}`);
    const url = `/workspaces/${ws}/share/asset/${a1}`;
    const set = (flags: Record<string, unknown>) => share(c, ws, `asset/${a1}`, { board_id: board, ...flags });
    const v = visitor();
    const t = link.token;
    const comment = (body: Record<string, unknown>) => v.post(`/share/${t}/comments`, { text: "Looks good", ...body });
    const edit = (body: Record<string, unknown>) => v.put(`/share/${t}/custom-fields/${field.id}`, body);

    // Defaults: comments shown and allowed, fields shown read-only, no downloads.
    const payload = (await get(v, `/share/${t}`)).json() as SharedPayload;
    expect(payload.asset?.id).toBe(a1);
    expect(payload.asset?.url).toBeNull();
    expect(payload.comments).toEqual([]);
    expect(payload.custom_fields).toEqual([]);
    const named = await comment({ author_name: "  Dana Client ", author_email: "dana@example.com" });
    expect(named.statusCode).toBe(201);
    expect(named.json()).toMatchObject({ author_display: "Dana Client", parent_id: null });
    const anon = await comment({ author_name: "", text: "Second thought", annotation_type: "POINT", x: 10, y: 20 });
    expect(anon.json()).toMatchObject({ author_display: "Anonymous", annotation_type: "POINT" });
    expect((await comment({ author_email: "not-an-email" })).statusCode).toBe(422);
    expect((await edit({ option_value_id: opt.id })).statusCode).toBe(403);

    // Members see both, with the visitor's name.
    const seen = (await c.get(`/workspaces/${ws}/comments?content_type=asset&object_id=${a1}`)).json();
    expect(seen.results.map((r: { author_display: string }) => r.author_display)).toEqual(["Dana Client", "Anonymous"]);

    // Commenting off: read but not write. Comments hidden: neither.
    await set({ allow_commenting: false });
    expect((await get(v, `/share/${t}/comments`)).json().results).toHaveLength(2);
    expect((await comment({})).statusCode).toBe(403);
    await set({ show_comments: false, allow_commenting: true });
    expect((await get(v, `/share/${t}`)).json().comments).toBeNull();
    expect((await get(v, `/share/${t}/comments`)).statusCode).toBe(403);
    expect((await comment({})).statusCode).toBe(403);

    // Field editing on: the visitor sets a value under their name.
    await set({ show_comments: true, allow_editing_custom_fields: true });
    const edited = await edit({ option_value_id: opt.id, editor_name: "Dana Client" });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().value).toMatchObject({
      value_display: "Approved",
      set_by: { kind: "visitor", display: "Dana Client" },
    });
    const fields = (await get(v, `/share/${t}/assets/${a1}/custom-fields`)).json();
    expect(fields).toEqual([expect.objectContaining({ field: expect.objectContaining({ title: "Status" }) })]);
    expect((await get(v, `/share/${t}`)).json().custom_fields[0]).toMatchObject({
      value_display: "Approved",
      field: { id: field.id, title: "Status" },
    });
    // Fields hidden: neither read nor write.
    await set({ show_custom_fields: false, allow_editing_custom_fields: false });
    expect((await get(v, `/share/${t}/assets/${a1}/custom-fields`)).statusCode).toBe(403);
    expect((await edit({ option_value_id: null })).statusCode).toBe(403);
    expect((await get(v, `/share/${t}`)).json().custom_fields).toBeNull();

    // Downloads: the original only while allowed, refused by its URL once turned off.
    await set({ allow_downloads: true });
    const withUrl = (await get(v, `/share/${t}`)).json() as SharedPayload;
    expect(withUrl.asset?.url).toMatch(/\/original\?exp=.*by=l\./);
    expect((await fetchMedia(withUrl.asset!.url!)).statusCode).toBe(200);
    await set({ allow_downloads: false });
    expect((await fetchMedia(withUrl.asset!.url!)).statusCode).toBe(404);
    // A rendition URL's signature does not stretch to the original.
    const thumb = withUrl.asset!.thumbnail_url!;
    expect((await fetchMedia(thumb.replace("thumbnail.jpg", "original"))).statusCode).toBe(404);
    // Management answers show the link's activity.
    const managed = (await c.get(`${url}?board_id=${board}`)).json();
    const kinds = Object.fromEntries(managed.activity.map((a: { kind: string; count: number }) => [a.kind, a.count]));
    expect(kinds).toMatchObject({ comment: 2, field_edit: 1, download: 1 });
    expect(kinds.open).toBeGreaterThanOrEqual(4);
  });

  it("a board's zip only while downloads are allowed, its URL checked against the link when fetched", async () => {
    const { ws, admin, board, sub } = await setup();
    const c = admin.client;
    const link = await share(c, ws, `board/${board}`);
    const v = visitor();
    const ask = (boardId?: string) => v.post(`/share/${link.token}/download`, boardId ? { board_id: boardId } : {});
    expect((await ask()).statusCode).toBe(403);
    await share(c, ws, `board/${board}`, { allow_downloads: true });
    const answer = await ask();
    expect(answer.statusCode).toBe(200);
    expect(answer.json().filename).toBe("Launch.zip");
    const zip = await fetchMedia(answer.json().download_url);
    expect(zip.statusCode).toBe(200);
    // Both pictures of the board and the one of its sub-board, as stored zip entries.
    const names = zip.rawPayload.toString("latin1").match(/(hero|alt|still)\.jpg/g) ?? [];
    expect(new Set(names)).toEqual(new Set(["hero.jpg", "alt.jpg", "still.jpg"]));
    expect((await ask(sub)).json().filename).toBe("Stills.zip");
    // Downloads turned off: the URL handed out before is refused.
    await share(c, ws, `board/${board}`, { allow_downloads: false });
    expect((await fetchMedia(answer.json().download_url)).statusCode).toBe(404);
    // A tampered spec (another board) breaks the signature.
    const url = new URL(answer.json().download_url, "http://x");
    url.searchParams.set("spec", `${url.searchParams.get("spec")!.slice(0, -2)}AA`);
    expect((await fetchMedia(`${url.pathname}${url.search}`)).statusCode).toBe(404);
  });

  it("an asset link follows its board: moved out or deleted, the link shows nothing", async () => {
    const { ws, admin, board, other, a1 } = await setup();
    const c = admin.client;
    const link = await share(c, ws, `asset/${a1}?board_id=${board}`);
    const v = visitor();
    expect((await get(v, `/share/${link.token}`)).statusCode).toBe(200);
    await c.post(`/workspaces/${ws}/assets/move`, { asset_ids: [a1], destination_id: other });
    expect((await get(v, `/share/${link.token}`)).statusCode).toBe(404);
    await c.post(`/workspaces/${ws}/assets/move`, { asset_ids: [a1], destination_id: board });
    expect((await get(v, `/share/${link.token}`)).statusCode).toBe(200);
    await c.del(`/workspaces/${ws}/assets`, { asset_ids: [a1] });
    expect((await get(v, `/share/${link.token}`)).statusCode).toBe(404);
  });

  it("visitors' comments are throttled per address and link; another address still writes", async () => {
    const { ws, admin, board, a1 } = await setup();
    const link = await share(admin.client, ws, `asset/${a1}?board_id=${board}`);
    // Most of the window used up already (as by a script), then the last allowed ones, then 429.
    await env.rt.db
      .insertInto("rate_limits")
      .values({ key: `share-write:${link.id}:10.77.0.1`, window_start: new Date(), count: VISITOR_WRITES.max - 2 })
      .execute();
    const v = visitor();
    Object.defineProperty(v, "ip", { value: "10.77.0.1" });
    const post = (c: Client) => c.post(`/share/${link.token}/comments`, { text: "spam?" });
    expect((await post(v)).statusCode).toBe(201);
    expect((await post(v)).statusCode).toBe(201);
    const held = await post(v);
    expect(held.statusCode).toBe(429);
    expect(Number(held.headers["retry-after"])).toBeGreaterThan(0);
    expect((await post(visitor())).statusCode).toBe(201);
  });

  it("a COMMENTER cannot list the workspace's links; an outsider gets 404", async () => {
    const { ws, members } = await setup();
    expect((await members.COMMENTER!.client.get(`/workspaces/${ws}/share-links`)).statusCode).toBe(403);
    expect((await members.EDITOR!.client.get(`/workspaces/${ws}/share-links`)).statusCode).toBe(403);
    const outsider = (await workspaceWith(env)).admin.client;
    expect((await outsider.get(`/workspaces/${ws}/share-links`)).statusCode).toBe(404);
  });
});
