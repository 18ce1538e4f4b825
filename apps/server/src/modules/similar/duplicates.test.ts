import type { Asset, DuplicateGroup, DuplicatesPage } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { pictureJpeg, picturePng } from "../../../test/pictures.ts";
import { processedAsset } from "../../../test/versions.ts";

/** Duplicates (issue 32): exact and near groups, largest first, and their three actions. */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
});
afterAll(() => env.close());

const groups = async (c: Client, ws: string, query = "") => {
  const res = await c.get(`/workspaces/${ws}/duplicates${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as DuplicatesPage;
};
const sorted = (ids: string[]) => [...ids].sort();
const groupOf = (page: DuplicatesPage, id: string) => page.data.find((g) => g.asset_ids.includes(id));

describe("GET /workspaces/{ws}/duplicates", () => {
  it("lists exact and near groups largest first with their sizes, and keeps, stacks and dismisses them", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const same = await pictureJpeg(31, 85);
    const x1 = await processedAsset(env, c, ws.id, "copy-1.jpg", same);
    const x2 = await processedAsset(env, c, ws.id, "copy-2.jpg", same);
    const n1 = await processedAsset(env, c, ws.id, "near.jpg", await pictureJpeg(32, 90));
    const n2 = await processedAsset(env, c, ws.id, "near-big.png", await picturePng(32, 1100));
    const n3 = await processedAsset(env, c, ws.id, "near-low.jpg", await pictureJpeg(32, 30, 300));
    const alone = await processedAsset(env, c, ws.id, "alone.jpg", await pictureJpeg(33));

    const page = await groups(c, ws.id);
    expect(page.max_distance).toBe(4);
    expect(page.total_count).toBe(2);
    const [near, exact] = page.data as [DuplicateGroup, DuplicateGroup];
    expect(near).toMatchObject({ kind: "near", count: 3, asset_ids: sorted([n1, n2, n3]) });
    expect(exact).toMatchObject({ kind: "exact", count: 2, asset_ids: sorted([x1, x2]), distance: 0 });
    expect(exact.size).toBe(same.length * 2);
    expect(exact.reclaimable).toBe(same.length);
    const sizes = near.assets.map((a: Asset) => a.size);
    expect(near.size).toBe(sizes.reduce((s, x) => s + x, 0));
    expect(near.reclaimable).toBe(near.size - Math.max(...sizes));
    expect(groupOf(page, alone)).toBeUndefined();
    // Paged: one group a page.
    const first = await groups(c, ws.id, "?page_size=1");
    expect(first.data.map((g) => g.kind)).toEqual(["near"]);
    expect(first.has_more).toBe(true);
    expect((await groups(c, ws.id, "?page=2&page_size=1")).data.map((g) => g.kind)).toEqual(["exact"]);

    // Dismiss the exact group: gone, until a new copy joins it.
    const dismissed = await c.post(`/workspaces/${ws.id}/duplicates/dismiss`, { asset_ids: exact.asset_ids });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(groupOf(await groups(c, ws.id), x1)).toBeUndefined();
    const x3 = await processedAsset(env, c, ws.id, "copy-3.jpg", same);
    expect(groupOf(await groups(c, ws.id), x1)).toMatchObject({ kind: "exact", asset_ids: sorted([x1, x2, x3]) });

    // Keep one of the near group: the others go to Recently deleted.
    const keep = await c.post(`/workspaces/${ws.id}/duplicates/keep`, { asset_ids: near.asset_ids, keep_id: n1 });
    expect(keep.statusCode, keep.body).toBe(200);
    expect(keep.json()).toEqual({ status: "ok", count: 2 });
    const trash = (await c.get(`/workspaces/${ws.id}/recently-deleted`)).json() as { assets: Array<{ id: string }> };
    expect(trash.assets.map((a) => a.id).sort()).toEqual(sorted([n2, n3]));
    expect(groupOf(await groups(c, ws.id), n1)).toBeUndefined();

    // Stack the exact group as versions of one.
    const stack = await c.post(`/workspaces/${ws.id}/duplicates/stack`, { asset_ids: [x1, x2, x3], keep_id: x1 });
    expect(stack.statusCode, stack.body).toBe(200);
    const kept = (await c.get(`/workspaces/${ws.id}/assets/${x1}`)).json() as Asset;
    expect(kept.version_count).toBe(3);
    expect((await groups(c, ws.id)).total_count).toBe(0);

    // Refused: the one to keep outside the group, an unknown asset, a group of one (422 with the field).
    const outside = await c.post(`/workspaces/${ws.id}/duplicates/keep`, { asset_ids: [x1, alone], keep_id: n1 });
    expect(outside.statusCode).toBe(422);
    expect(JSON.stringify(outside.json())).toContain("keep_id");
    const unknown = "00000000-0000-4000-8000-000000000000";
    const gone = await c.post(`/workspaces/${ws.id}/duplicates/stack`, { asset_ids: [x1, unknown], keep_id: x1 });
    expect(gone.statusCode).toBe(422);
    expect(gone.json().detail).toBeTruthy();
    expect((await c.post(`/workspaces/${ws.id}/duplicates/dismiss`, { asset_ids: [x1] })).statusCode).toBe(422);
    expect((await c.get(`/workspaces/${ws.id}/duplicates?page_size=1000`)).statusCode).toBe(422);
  });

  it("takes the workspace's near distance from its ADMIN", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR"]);
    const put = (c: Client, max_distance: unknown) =>
      c.put(`/workspaces/${ws.id}/duplicates/settings`, { max_distance });
    const set = await put(admin.client, 0);
    expect(set.statusCode, set.body).toBe(200);
    expect((await groups(admin.client, ws.id)).max_distance).toBe(0);
    expect((await put(members.EDITOR!.client, 6)).statusCode).toBe(403);
    const bad = await put(admin.client, 64);
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json())).toContain("max_distance");
  });
});

describe("who may use duplicates", () => {
  it("answers an outsider 404 and a COMMENTER 403 on every action (200 on the list)", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const c = admin.client;
    const a = await processedAsset(env, c, ws.id, "a.jpg", await pictureJpeg(41));
    const b = await processedAsset(env, c, ws.id, "b.jpg", await pictureJpeg(41));
    const outsider = (await workspaceWith(env)).admin.client;
    const calls = {
      list: (x: Client) => x.get(`/workspaces/${ws.id}/duplicates`),
      similar: (x: Client) => x.get(`/workspaces/${ws.id}/assets/${a}/similar`),
      keep: (x: Client) => x.post(`/workspaces/${ws.id}/duplicates/keep`, { asset_ids: [a, b], keep_id: a }),
      stack: (x: Client) => x.post(`/workspaces/${ws.id}/duplicates/stack`, { asset_ids: [a, b], keep_id: a }),
      dismiss: (x: Client) => x.post(`/workspaces/${ws.id}/duplicates/dismiss`, { asset_ids: [a, b] }),
      settings: (x: Client) => x.put(`/workspaces/${ws.id}/duplicates/settings`, { max_distance: 5 }),
    };
    const got: Record<string, Record<string, number>> = { COMMENTER: {}, outsider: {} };
    for (const [name, call] of Object.entries(calls)) {
      got.COMMENTER![name] = (await call(members.COMMENTER!.client)).statusCode;
      got.outsider![name] = (await call(outsider)).statusCode;
    }
    expect(got).toEqual({
      COMMENTER: { list: 200, similar: 200, keep: 403, stack: 403, dismiss: 403, settings: 403 },
      outsider: { list: 404, similar: 404, keep: 404, stack: 404, dismiss: 404, settings: 404 },
    });
  });
});
