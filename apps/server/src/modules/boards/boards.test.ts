import { BoardList } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

type B = { id: string; name: string; parent_id: string | null; child_count: number; position: number; children?: B[] };

async function mk(c: Client, ws: string, name: string, parent: string | null = null): Promise<B> {
  const res = await c.post(`/workspaces/${ws}/boards`, { name, parent_id: parent });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
const names = (list: B[]) => list.map((b) => b.name);

/** An asset row made directly: the upload pipeline arrives with its own issue. */
async function asset(wsId: string, name: string, boardIds: string[]) {
  const a = await env.rt.db
    .insertInto("assets")
    .values({ workspace_id: wsId, name })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const b of boardIds)
    await env.rt.db.insertInto("board_assets").values({ board_id: b, asset_id: a.id }).execute();
  return a.id;
}
const assetDeleted = async (id: string) =>
  (await env.rt.db.selectFrom("assets").select("deleted_at").where("id", "=", id).executeTakeFirstOrThrow())
    .deleted_at !== null;

describe("boards tree", () => {
  it("creates roots and children in order, trims names, lists flat and recursive", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const a = await mk(c, ws.id, "  Campaigns ");
    expect(a).toMatchObject({ name: "Campaigns", parent_id: null, child_count: 0, position: 0 });
    const b = await mk(c, ws.id, "Brand");
    const a1 = await mk(c, ws.id, "2026", a.id);
    await mk(c, ws.id, "Q1", a1.id);
    const roots: B[] = (await c.get(`/workspaces/${ws.id}/boards`)).json();
    expect(names(roots)).toEqual(["Campaigns", "Brand"]);
    expect(roots.map((r) => r.child_count)).toEqual([1, 0]);
    expect(names((await c.get(`/workspaces/${ws.id}/boards?parent_id=${a.id}`)).json())).toEqual(["2026"]);
    const tree: B[] = (await c.get(`/workspaces/${ws.id}/boards?recursive=true`)).json();
    expect(tree[0]!.children![0]!.children![0]!.name).toBe("Q1");
    expect(tree[0]!.children![0]!.child_count).toBe(1);
    const sub: B[] = (await c.get(`/workspaces/${ws.id}/boards?parent_id=${a.id}&recursive=true`)).json();
    expect(names(sub)).toEqual(["2026"]);
    expect(names(sub[0]!.children!)).toEqual(["Q1"]);
    expect(b.position).toBe(1);
  });

  it("rejects empty names with 422 and unknown parents with 404", async () => {
    const { ws, admin } = await workspaceWith(env);
    expect((await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "   " })).statusCode).toBe(422);
    expect(
      (await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "x", parent_id: crypto.randomUUID() }))
        .statusCode,
    ).toBe(404);
  });

  it("answers ancestors root first", async () => {
    const { ws, admin } = await workspaceWith(env);
    const a = await mk(admin.client, ws.id, "A");
    const b = await mk(admin.client, ws.id, "B", a.id);
    const c = await mk(admin.client, ws.id, "C", b.id);
    const res = await admin.client.get(`/workspaces/${ws.id}/boards/${c.id}/ancestors`);
    expect(res.json()).toEqual([
      { id: a.id, name: "A", parent_id: null },
      { id: b.id, name: "B", parent_id: a.id },
    ]);
    expect((await admin.client.get(`/workspaces/${ws.id}/boards/${a.id}/ancestors`)).json()).toEqual([]);
  });

  it("renames, moves under another board and to the root; refuses cycles with 422", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const a = await mk(c, ws.id, "A");
    const b = await mk(c, ws.id, "B", a.id);
    const d = await mk(c, ws.id, "D", b.id);
    expect((await c.put(`/workspaces/${ws.id}/boards/${a.id}`, { name: " Renamed " })).json().name).toBe("Renamed");
    for (const target of [a.id, b.id, d.id]) {
      const res = await c.put(`/workspaces/${ws.id}/boards/${a.id}`, { parent_id: target });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toMatch(/itself or one of its sub-boards/);
    }
    const x = await mk(c, ws.id, "X");
    const moved = await c.put(`/workspaces/${ws.id}/boards/${b.id}`, { parent_id: x.id });
    expect(moved.json()).toMatchObject({ parent_id: x.id, child_count: 1 });
    expect((await c.get(`/workspaces/${ws.id}/boards`)).json().map((r: B) => [r.name, r.child_count])).toEqual([
      ["Renamed", 0],
      ["X", 1],
    ]);
    const toRoot = await c.put(`/workspaces/${ws.id}/boards/${d.id}`, { parent_id: "root" });
    expect(toRoot.json()).toMatchObject({ parent_id: null, position: 2 });
    expect((await c.put(`/workspaces/${ws.id}/boards/${b.id}`, { parent_id: null })).json().parent_id).toBeNull();
    expect((await c.put(`/workspaces/${ws.id}/boards/${b.id}`, {})).statusCode).toBe(422);
  });

  it("reorders siblings atomically and keeps positions unique under concurrent reorders", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const ids: string[] = [];
    for (const n of ["a", "b", "c", "d", "e"]) ids.push((await mk(c, ws.id, n)).id);
    const res = await c.post(`/workspaces/${ws.id}/boards/reorder`, [{ board_id: ids[4], new_order: 0 }]);
    expect(res.statusCode).toBe(200);
    expect(names(res.json())).toEqual(["e", "a", "b", "c", "d"]);
    const full = await c.post(
      `/workspaces/${ws.id}/boards/reorder`,
      ids.map((id, i) => ({ board_id: id, new_order: 4 - i })),
    );
    expect(names(full.json())).toEqual(["e", "d", "c", "b", "a"]);

    const shuffles = Array.from({ length: 12 }, (_v, k) =>
      c.post(`/workspaces/${ws.id}/boards/reorder`, [
        { board_id: ids[k % 5], new_order: (k * 3) % 5 },
        { board_id: ids[(k + 2) % 5], new_order: (k * 7) % 5 === (k * 3) % 5 ? (((k * 7) % 5) + 1) % 5 : (k * 7) % 5 },
      ]),
    );
    const statuses = (await Promise.all(shuffles)).map((r) => r.statusCode);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const after: B[] = (await c.get(`/workspaces/${ws.id}/boards`)).json();
    expect(after.map((b) => b.position)).toEqual([0, 1, 2, 3, 4]);
    expect(new Set(after.map((b) => b.id)).size).toBe(5);
  });

  it("refuses a reorder across parents (422) and leaves the order untouched", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const a = await mk(c, ws.id, "a");
    const b = await mk(c, ws.id, "b");
    const child = await mk(c, ws.id, "child", a.id);
    const res = await c.post(`/workspaces/${ws.id}/boards/reorder`, [
      { board_id: b.id, new_order: 0 },
      { board_id: child.id, new_order: 1 },
    ]);
    expect(res.statusCode).toBe(422);
    expect(names((await c.get(`/workspaces/${ws.id}/boards`)).json())).toEqual(["a", "b"]);
    expect((await c.post(`/workspaces/${ws.id}/boards/reorder`, [])).statusCode).toBe(422);
  });

  it("deletes a subtree with its own assets, keeps an asset that lives elsewhere, restores together", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const top = await mk(c, ws.id, "Top");
    const mid = await mk(c, ws.id, "Mid", top.id);
    const leaf = await mk(c, ws.id, "Leaf", mid.id);
    const other = await mk(c, ws.id, "Other");
    const onlyInside = await asset(ws.id, "inside.jpg", [leaf.id]);
    const twiceInside = await asset(ws.id, "twice.jpg", [mid.id, leaf.id]);
    const alsoElsewhere = await asset(ws.id, "shared.jpg", [mid.id, other.id]);
    const outside = await asset(ws.id, "outside.jpg", [other.id]);

    const del = await c.del(`/workspaces/${ws.id}/boards/${top.id}`);
    expect(del.json()).toMatchObject({ deleted_boards: 3, deleted_assets: 2 });
    expect(names((await c.get(`/workspaces/${ws.id}/boards?recursive=true`)).json())).toEqual(["Other"]);
    expect(await assetDeleted(onlyInside)).toBe(true);
    expect(await assetDeleted(twiceInside)).toBe(true);
    expect(await assetDeleted(alsoElsewhere)).toBe(false);
    expect(await assetDeleted(outside)).toBe(false);
    expect((await c.get(`/workspaces/${ws.id}/boards/${mid.id}/ancestors`)).statusCode).toBe(404);

    // Meanwhile a new root took position 0's neighbourhood; the restored top goes to the end.
    await mk(c, ws.id, "Newer");
    const restored = await c.post(`/workspaces/${ws.id}/boards/${mid.id}/restore`);
    expect(restored.json()).toMatchObject({ restored_boards: 3, restored_assets: 2 });
    const tree: B[] = (await c.get(`/workspaces/${ws.id}/boards?recursive=true`)).json();
    expect(names(tree)).toEqual(["Other", "Newer", "Top"]);
    expect(names(tree[2]!.children!)).toEqual(["Mid"]);
    expect(names(tree[2]!.children![0]!.children!)).toEqual(["Leaf"]);
    expect(await assetDeleted(onlyInside)).toBe(false);
    expect((await c.post(`/workspaces/${ws.id}/boards/${mid.id}/restore`)).statusCode).toBe(404);
  });

  it("restores a sub-board to the root when its parent was deleted on its own", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const p = await mk(c, ws.id, "Parent");
    const kid = await mk(c, ws.id, "Kid", p.id);
    await c.del(`/workspaces/${ws.id}/boards/${kid.id}`);
    await c.del(`/workspaces/${ws.id}/boards/${p.id}`);
    await c.post(`/workspaces/${ws.id}/boards/${kid.id}/restore`);
    expect((await c.get(`/workspaces/${ws.id}/boards`)).json()).toEqual([
      expect.objectContaining({ name: "Kid", parent_id: null }),
    ]);
  });

  it("adds and removes assets; foreign or unknown assets are 404", async () => {
    const { ws, admin } = await workspaceWith(env);
    const other = await workspaceWith(env);
    const board = await mk(admin.client, ws.id, "B");
    const mine = await asset(ws.id, "a.jpg", []);
    const theirs = await asset(other.ws.id, "t.jpg", []);
    const url = `/workspaces/${ws.id}/boards/${board.id}/assets`;
    expect((await admin.client.post(url, { asset_ids: [mine, mine] })).json()).toEqual({ status: "ok", count: 1 });
    expect((await admin.client.post(url, { asset_ids: [mine] })).json().count).toBe(0);
    expect((await admin.client.post(url, { asset_ids: [theirs] })).statusCode).toBe(404);
    expect((await admin.client.post(url, { asset_ids: [] })).statusCode).toBe(422);
    expect((await admin.client.del(url, { asset_ids: [mine] })).json().count).toBe(1);
  });
});

describe("recursive tree JSON built by PostgreSQL", () => {
  it("matches the contract and a reference nesting, with hostile names", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const weird = ['He said "hi"', "back\\slash", "ends with }", "]},{", "emoji 🚀 ünïcödé", "tab\tnew\nline"];
    const made: B[] = [];
    for (const [i, name] of weird.entries()) made.push(await mk(c, ws.id, name, i % 2 === 0 ? null : made[i - 1]!.id));
    await mk(c, ws.id, "deep", made[5]!.id);
    // A smart board's saved filter travels as JSON inside the JSON (issue 33), hostile text too.
    const smart = await c.post(`/workspaces/${ws.id}/boards`, {
      name: "smart",
      parent_id: made[0]!.id,
      kind: "smart",
      filter: { search: 'x"]},{\\ 🚀', tags: { includes: ["a\tb"] } },
    });
    expect(smart.statusCode, smart.body).toBe(201);
    const res = await c.get(`/workspaces/${ws.id}/boards?recursive=true`);
    expect(res.headers["content-type"]).toMatch(/application\/json/);
    const tree = BoardList.parse(res.json());
    // Reference: nest the flat rows in JS.
    const flat = await env.rt.db
      .selectFrom("boards")
      .select(["id", "name", "parent_id", "position", "kind", "filter"])
      .where("workspace_id", "=", ws.id)
      .where("deleted_at", "is", null)
      .orderBy("position")
      .execute();
    const nest = (parent: string | null): B[] =>
      flat
        .filter((b) => b.parent_id === parent)
        .map((b) => {
          const children = nest(b.id);
          // The answer now also carries the caller's abilities (an admin here: everything).
          return { ...b, child_count: children.length, abilities: { edit: true, delete: true, share: true }, children };
        });
    expect(tree).toEqual(nest(null));
    expect(tree.map((b) => b.name)).toEqual(['He said "hi"', "ends with }", "emoji 🚀 ünïcödé"]);
    const sub = BoardList.parse(
      (await c.get(`/workspaces/${ws.id}/boards?parent_id=${made[4]!.id}&recursive=1`)).json(),
    );
    expect(sub).toEqual(nest(made[4]!.id));
    const empty = await workspaceWith(env);
    expect((await empty.admin.client.get(`/workspaces/${empty.ws.id}/boards?recursive=true`)).json()).toEqual([]);
  });
});

describe("boards roles", () => {
  it("COMMENTER reads only; EDITOR edits; another workspace's board is 404", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    const board = await mk(admin.client, ws.id, "Shared");
    const commenter = members.COMMENTER!.client;
    expect((await commenter.get(`/workspaces/${ws.id}/boards`)).statusCode).toBe(200);
    expect((await commenter.get(`/workspaces/${ws.id}/boards/${board.id}/ancestors`)).statusCode).toBe(200);
    const attempts = [
      commenter.post(`/workspaces/${ws.id}/boards`, { name: "no" }),
      commenter.put(`/workspaces/${ws.id}/boards/${board.id}`, { name: "no" }),
      commenter.del(`/workspaces/${ws.id}/boards/${board.id}`),
      commenter.post(`/workspaces/${ws.id}/boards/reorder`, [{ board_id: board.id, new_order: 0 }]),
      commenter.post(`/workspaces/${ws.id}/boards/${board.id}/assets`, { asset_ids: [crypto.randomUUID()] }),
      commenter.post(`/workspaces/${ws.id}/boards/${board.id}/restore`),
    ];
    for (const r of await Promise.all(attempts)) expect(r.statusCode).toBe(403);
    expect(
      (await members.EDITOR!.client.put(`/workspaces/${ws.id}/boards/${board.id}`, { name: "Edited" })).statusCode,
    ).toBe(200);

    // A board id from another workspace, used through a workspace the caller is in: 404.
    const mine = await workspaceWith(env);
    const foreign = await mk(admin.client, ws.id, "Foreign");
    const c = mine.admin.client;
    expect((await c.put(`/workspaces/${mine.ws.id}/boards/${foreign.id}`, { name: "x" })).statusCode).toBe(404);
    expect((await c.get(`/workspaces/${mine.ws.id}/boards/${foreign.id}/ancestors`)).statusCode).toBe(404);
    expect((await c.del(`/workspaces/${mine.ws.id}/boards/${foreign.id}`)).statusCode).toBe(404);
    expect((await c.get(`/workspaces/${mine.ws.id}/boards?parent_id=${foreign.id}`)).statusCode).toBe(404);
    const own = await mk(c, mine.ws.id, "Own");
    expect((await c.put(`/workspaces/${mine.ws.id}/boards/${own.id}`, { parent_id: foreign.id })).statusCode).toBe(404);
  });
});
