import { type Asset, type Board, type ShareLink, SMART_BOARD_MESSAGES as SMART } from "@hangar/contract";
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

/** Issue 33: smart boards hold a saved filter and show whatever matches it now. */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

const jpeg = (r: number, g: number, b: number) =>
  sharp({ create: { width: 160, height: 100, channels: 3, background: { r, g, b } } })
    .jpeg()
    .toBuffer();

async function setup() {
  const w = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
  const c = w.admin.client;
  const ws = w.ws.id;
  const launch = (await c.post(`/workspaces/${ws}/boards`, { name: "Launch" })).json().id as string;
  const ids: Record<string, string> = {};
  for (const [name, [r, g, b]] of [
    ["hero", [200, 30, 30]],
    ["alt", [30, 200, 30]],
    ["plain", [30, 30, 200]],
  ] as const) {
    ids[name] = await uploadBytes(c, ws, `${name}.jpg`, await jpeg(r, g, b), launch);
    expect((await waitForAsset(c, ws, ids[name]!)).status).toBe("COMPLETED");
  }
  return { ...w, c, ws, launch, hero: ids.hero!, alt: ids.alt!, plain: ids.plain! };
}

const tag = (c: Client, ws: string, ids: string[], tags: string[]) =>
  c.post(`/workspaces/${ws}/assets/tags`, { asset_ids: ids, tags, mode: "replace" });
const names = (data: Asset[]) => data.map((a) => a.name).sort();
const list = async (c: Client, ws: string, body: Record<string, unknown>) => {
  const res = await c.post(`/workspaces/${ws}/assets`, { page_size: 100, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Asset[];
};
const makeSmart = async (c: Client, ws: string, name: string, filter: unknown, parent: string | null = null) =>
  c.post(`/workspaces/${ws}/boards`, { name, kind: "smart", filter, parent_id: parent });
const share = async (c: Client, ws: string, path: string, body?: Record<string, unknown>) => {
  const res = body
    ? await c.put(`/workspaces/${ws}/share/${path}`, body)
    : await c.get(`/workspaces/${ws}/share/${path}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ShareLink;
};
const SUMMER = { tags: { includes: ["summer"] } };
/** Each test uploads and processes real pictures: on a busy 2-core machine that takes a while. */
const SLOW = 240_000;

describe("smart boards", () => {
  it(
    "follow their filter as assets change (tags, uploads, deletion), through a share link too",
    async () => {
      const { c, ws, launch, hero, alt, plain } = await setup();
      await tag(c, ws, [hero], ["summer"]);
      const res = await makeSmart(c, ws, "Summer picks", SUMMER, launch);
      expect(res.statusCode, res.body).toBe(201);
      const smart = res.json() as Board;
      expect(smart).toMatchObject({ kind: "smart", filter: SUMMER, parent_id: launch, child_count: 0 });
      const tree = (await c.get(`/workspaces/${ws}/boards?recursive=true`)).json() as Board[];
      expect(tree[0]!.children![0]).toMatchObject({ id: smart.id, kind: "smart", filter: SUMMER });
      expect(tree[0]!.kind).toBe("normal");

      const board = () => list(c, ws, { board_id: smart.id });
      // The same answer as the filter sent directly.
      expect(names(await board())).toEqual(["hero.jpg"]);
      expect((await board()).map((a) => a.id)).toEqual((await list(c, ws, SUMMER)).map((a) => a.id));

      const link = await share(c, ws, `board/${smart.id}`);
      const v = new Client(env.app);
      const visitorNames = async () => names((await v.get(`/share/${link.token}/assets`)).json().data);
      expect(await visitorNames()).toEqual(["hero.jpg"]);
      // A share link of the normal parent board shows the smart sub-board's live result too.
      const parentLink = await share(c, ws, `board/${launch}`);
      const pv = new Client(env.app);
      const throughParent = async () =>
        names((await pv.get(`/share/${parentLink.token}/assets?board_id=${smart.id}`)).json().data);
      expect(await throughParent()).toEqual(["hero.jpg"]);

      // A tag added: the asset joins, for members and visitors, with its own URL checks.
      await tag(c, ws, [alt], ["Summer"]);
      expect(names(await board())).toEqual(["alt.jpg", "hero.jpg"]);
      expect(await visitorNames()).toEqual(["alt.jpg", "hero.jpg"]);
      expect((await v.get(`/share/${link.token}/assets/${alt}`)).statusCode).toBe(200);
      expect((await v.get(`/share/${link.token}/assets/${plain}`)).statusCode).toBe(404);

      // A tag removed: it leaves at once, its visitor URLs with it.
      const shown = (await v.get(`/share/${link.token}/assets/${hero}`)).json() as Asset;
      expect(shown.thumbnail_url).toBeTruthy();
      await tag(c, ws, [hero], []);
      expect(names(await board())).toEqual(["alt.jpg"]);
      expect(await visitorNames()).toEqual(["alt.jpg"]);
      expect((await v.get(`/share/${link.token}/assets/${hero}`)).statusCode).toBe(404);
      expect((await requestUrl(env.app, "GET", shown.thumbnail_url!)).statusCode).toBe(404);

      // A new upload that matches appears; a deleted asset leaves.
      const fresh = await uploadBytes(c, ws, "fresh.jpg", await jpeg(250, 200, 10));
      await waitForAsset(c, ws, fresh);
      await tag(c, ws, [fresh], ["summer"]);
      expect(names(await board())).toEqual(["alt.jpg", "fresh.jpg"]);
      expect(await throughParent()).toEqual(["alt.jpg", "fresh.jpg"]);
      expect((await pv.get(`/share/${parentLink.token}/assets/${fresh}`)).statusCode).toBe(200);
      expect((await c.del(`/workspaces/${ws}/assets`, { asset_ids: [alt] })).statusCode).toBe(200);
      expect(names(await board())).toEqual(["fresh.jpg"]);
      expect(await visitorNames()).toEqual(["fresh.jpg"]);
      expect((await v.get(`/share/${link.token}/assets/${alt}`)).statusCode).toBe(404);

      // The visitor never sees the saved filter itself.
      const payload = (await v.get(`/share/${link.token}`)).json();
      expect(JSON.stringify(payload)).not.toContain('"filter"');
    },
    SLOW,
  );

  it(
    "the caller's own conditions narrow a smart board; a visitor cannot widen it",
    async () => {
      const { c, ws, hero, alt, plain } = await setup();
      await tag(c, ws, [hero, alt], ["summer"]);
      await tag(c, ws, [plain], ["winter"]);
      const smart = (await makeSmart(c, ws, "Summer", SUMMER)).json() as Board;
      expect(names(await list(c, ws, { board_id: smart.id, search: "hero" }))).toEqual(["hero.jpg"]);
      // Asking for another tag ANDs it: nothing is both, so nothing (the winter asset does not come in).
      expect(await list(c, ws, { board_id: smart.id, tags: { includes: ["winter"] } })).toEqual([]);
      expect(await list(c, ws, { board_id: smart.id, file_type: { excludes: ["IMAGE"] } })).toEqual([]);
      // Cursor paging walks the smart board's listing.
      const first = (await c.post(`/workspaces/${ws}/assets`, { board_id: smart.id, page_size: 1 })).json();
      expect(first.pagination.next_cursor).toBeTruthy();
      const second = await list(c, ws, { board_id: smart.id, page_size: 1, cursor: first.pagination.next_cursor });
      expect(names([...first.data, ...second])).toEqual(["alt.jpg", "hero.jpg"]);

      const link = await share(c, ws, `board/${smart.id}`);
      const v = new Client(env.app);
      // Listing keys a visitor might add are not theirs to send: the answer is the board's, no more.
      const wide = await v.get(`/share/${link.token}/assets?tags=winter&search=plain&board_id=${smart.id}`);
      expect(names(wide.json().data)).toEqual(["alt.jpg", "hero.jpg"]);
      expect((await v.get(`/share/${link.token}/assets/${plain}`)).statusCode).toBe(404);
      const other = (await c.post(`/workspaces/${ws}/boards`, { name: "Other" })).json().id;
      expect((await v.get(`/share/${link.token}/assets?board_id=${other}`)).statusCode).toBe(404);
    },
    SLOW,
  );

  it(
    "refuses filing into a smart board and sub-boards under it (409), with a clear text",
    async () => {
      const { c, ws, launch, hero } = await setup();
      const smart = (await makeSmart(c, ws, "Smart", SUMMER)).json() as Board;
      const add = await c.post(`/workspaces/${ws}/boards/${smart.id}/assets`, { asset_ids: [hero] });
      expect(add.statusCode).toBe(409);
      expect(add.json().detail).toBe(SMART.noFiling);
      expect((await c.del(`/workspaces/${ws}/boards/${smart.id}/assets`, { asset_ids: [hero] })).statusCode).toBe(409);
      const move = await c.post(`/workspaces/${ws}/assets/move`, { asset_ids: [hero], destination_id: smart.id });
      expect(move.statusCode).toBe(409);
      expect(move.json().detail).toBe(SMART.noFiling);
      const upload = await c.post(`/workspaces/${ws}/assets/upload`, { name: "x.jpg", size: 10, board_id: smart.id });
      expect(upload.statusCode).toBe(409);
      expect(upload.json().detail).toBe(SMART.noFiling);
      const child = await c.post(`/workspaces/${ws}/boards`, { name: "Under", parent_id: smart.id });
      expect(child.statusCode).toBe(409);
      expect(child.json().detail).toBe(SMART.noChildren);
      const moved = await c.put(`/workspaces/${ws}/boards/${launch}`, { parent_id: smart.id });
      expect(moved.statusCode).toBe(409);
      // A smart board itself moves under a normal board, and back to the root.
      expect((await c.put(`/workspaces/${ws}/boards/${smart.id}`, { parent_id: launch })).json().parent_id).toBe(
        launch,
      );
      expect((await c.put(`/workspaces/${ws}/boards/${smart.id}`, { parent_id: null })).json().parent_id).toBeNull();
    },
    SLOW,
  );

  it(
    "editing the filter: EDITOR and ADMIN; COMMENTER 403; outsider 404; recorded in the audit log",
    async () => {
      const { c, ws, members, hero, alt } = await setup();
      await tag(c, ws, [hero], ["summer"]);
      await tag(c, ws, [alt], ["autumn"]);
      const outsider = (await workspaceWith(env)).admin.client;
      expect((await makeSmart(members.COMMENTER!.client, ws, "No", SUMMER)).statusCode).toBe(403);
      expect((await makeSmart(outsider, ws, "No", SUMMER)).statusCode).toBe(404);
      const smart = (await makeSmart(members.EDITOR!.client, ws, "Season", SUMMER)).json() as Board;
      const url = `/workspaces/${ws}/boards/${smart.id}`;
      const autumn = { tags: { includes: ["autumn"] } };
      expect((await members.COMMENTER!.client.put(url, { filter: autumn })).statusCode).toBe(403);
      expect((await outsider.put(url, { filter: autumn })).statusCode).toBe(404);
      expect((await outsider.post(`/workspaces/${ws}/assets`, { board_id: smart.id })).statusCode).toBe(404);
      const edited = await members.EDITOR!.client.put(url, { filter: autumn });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ kind: "smart", filter: autumn });
      expect(names(await list(c, ws, { board_id: smart.id }))).toEqual(["alt.jpg"]);
      // A COMMENTER still sees the board's live result.
      expect(names(await list(members.COMMENTER!.client, ws, { board_id: smart.id }))).toEqual(["alt.jpg"]);
      const audit = await env.rt.db
        .selectFrom("audit_events")
        .select(["action", "changes"])
        .where("object_id", "=", smart.id)
        .where("action", "=", "board.updated")
        .execute();
      expect(JSON.stringify(audit)).toContain("autumn");
    },
    SLOW,
  );

  it(
    "a smart board's zip holds its live result, for members and through its share link",
    async () => {
      const { c, ws, hero, alt } = await setup();
      await tag(c, ws, [hero, alt], ["summer"]);
      const smart = (await makeSmart(c, ws, "Zip me", SUMMER)).json() as Board;
      const zipNames = async (url: string) => {
        const zip = await requestUrl(env.app, "GET", url);
        expect(zip.statusCode).toBe(200);
        return [...new Set(zip.rawPayload.toString("latin1").match(/(hero|alt|plain)\.jpg/g) ?? [])].sort();
      };
      const asked = await c.post(`/workspaces/${ws}/download`, { board_ids: [smart.id] });
      expect(asked.statusCode, asked.body).toBe(200);
      expect(asked.json().filename).toBe("Zip me.zip");
      expect(await zipNames(asked.json().download_url)).toEqual(["alt.jpg", "hero.jpg"]);
      // Live: the URL's zip is made when fetched, so a tag removed since leaves it.
      await tag(c, ws, [alt], []);
      expect(await zipNames(asked.json().download_url)).toEqual(["hero.jpg"]);
      const link = await share(c, ws, `board/${smart.id}`, { allow_downloads: true });
      const v = new Client(env.app);
      const visitorZip = await v.post(`/share/${link.token}/download`, {});
      expect(visitorZip.statusCode, visitorZip.body).toBe(200);
      expect(await zipNames(visitorZip.json().download_url)).toEqual(["hero.jpg"]);
    },
    SLOW,
  );

  it(
    "refuses filters that cannot be stored (422 naming the field), and a filter on a normal board (409)",
    async () => {
      const { c, ws, launch, hero } = await setup();
      const smart = (await makeSmart(c, ws, "Smart", SUMMER)).json() as Board;
      const bad = async (res: Awaited<ReturnType<Client["post"]>>, field: string) => {
        expect(res.statusCode, res.body).toBe(422);
        expect(JSON.stringify(res.json().errors ?? [])).toContain(field);
      };
      await bad(await makeSmart(c, ws, "Empty", {}), "filter");
      await bad(await c.post(`/workspaces/${ws}/boards`, { name: "No filter", kind: "smart" }), "filter");
      await bad(await c.post(`/workspaces/${ws}/boards`, { name: "Normal", filter: SUMMER }), "filter");
      await bad(await makeSmart(c, ws, "Odd", { colour: "red" }), "colour");
      await bad(await makeSmart(c, ws, "Paged", { ...SUMMER, page: 2 }), "page");
      await bad(await makeSmart(c, ws, "Smart of smart", { board_id: smart.id }), "filter.board_id");
      const self = await c.put(`/workspaces/${ws}/boards/${smart.id}`, { filter: { board_id: smart.id } });
      await bad(self, "filter.board_id");
      expect(self.json().detail).toBe(SMART.selfFilter);
      await bad(await makeSmart(c, ws, "Gone", { board_id: crypto.randomUUID() }), "filter.board_id");
      await bad(
        await makeSmart(c, ws, "Similar", { similar_to: { asset_id: crypto.randomUUID(), max_distance: 8 } }),
        "filter.similar_to.asset_id",
      );
      // A normal board in the filter is fine: its filed assets, live.
      const inLaunch = await makeSmart(c, ws, "Launch pictures", {
        board_id: launch,
        file_type: { includes: ["IMAGE"] },
      });
      expect(inLaunch.statusCode, inLaunch.body).toBe(201);
      expect(names(await list(c, ws, { board_id: inLaunch.json().id }))).toEqual(["alt.jpg", "hero.jpg", "plain.jpg"]);
      const normal = await c.put(`/workspaces/${ws}/boards/${launch}`, { filter: SUMMER });
      expect(normal.statusCode).toBe(409);
      expect(normal.json().detail).toBe(SMART.notSmart);
      expect(hero).toBeTruthy();
    },
    SLOW,
  );
});
