import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestEnv,
  signedInUser,
  type TestEnv,
  testStorage,
  uploadBytes,
  waitForAsset,
  workspaceWith,
} from "../../../test/harness.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0" });
});
afterAll(() => env.close());

/** Asset rows made directly: these tests are about actions, not uploads. */
async function asset(wsId: string, name: string, boardIds: string[] = []) {
  const a = await env.rt.db
    .insertInto("assets")
    .values({ workspace_id: wsId, name, status: "COMPLETED", is_temp: false, directory: `${wsId}/x` })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const b of boardIds)
    await env.rt.db.insertInto("board_assets").values({ board_id: b, asset_id: a.id }).execute();
  return a.id;
}

describe("asset actions", () => {
  it("PUT renames (trimmed) and sets or clears the description; empty name is 422", async () => {
    const { ws, admin } = await workspaceWith(env);
    const id = await asset(ws.id, "a.jpg");
    const url = `/workspaces/${ws.id}/assets/${id}`;
    expect((await admin.client.put(url, { name: "  Hero shot  " })).json()).toMatchObject({ name: "Hero shot" });
    expect((await admin.client.put(url, { description: "For the launch" })).json().description).toBe("For the launch");
    expect((await admin.client.put(url, { description: "   " })).json().description).toBeNull();
    expect((await admin.client.put(url, { name: "  " })).statusCode).toBe(422);
    expect((await admin.client.put(url, {})).statusCode).toBe(422);
  });

  it("sets tags: trimmed, empties dropped, duplicates ignored; listed per workspace with counts", async () => {
    const { ws, admin } = await workspaceWith(env);
    const a = await asset(ws.id, "a");
    const b = await asset(ws.id, "b");
    const res = await admin.client.post(`/workspaces/${ws.id}/assets/tags`, {
      asset_ids: [a, b],
      tags: [" red ", "", "Red", "summer", "summer "],
    });
    expect(res.json()).toEqual({ status: "ok", count: 2 });
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${a}`)).json().tags).toEqual(["red", "summer"]);
    await admin.client.post(`/workspaces/${ws.id}/assets/tags`, { asset_ids: [b], tags: ["summer"] });
    expect((await admin.client.get(`/workspaces/${ws.id}/tags`)).json()).toEqual([
      { name: "red", count: 1 },
      { name: "summer", count: 2 },
    ]);
    await admin.client.post(`/workspaces/${ws.id}/assets/tags`, { asset_ids: [a], tags: [] });
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${a}`)).json().tags).toEqual([]);
  });

  it("mode add joins the tags each asset has (no doubles, any case); replace stays the default", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const other = await workspaceWith(env);
    const a = await asset(ws.id, "a");
    const b = await asset(ws.id, "b");
    const url = `/workspaces/${ws.id}/assets/tags`;
    const tagsOf = async (id: string) =>
      ((await admin.client.get(`/workspaces/${ws.id}/assets/${id}`)).json().tags as string[])
        .map((t) => t.toLowerCase())
        .sort();
    await admin.client.post(url, { asset_ids: [a], tags: ["red", "poster"] });
    await admin.client.post(url, { asset_ids: [b], tags: ["blue"] });
    const added = await admin.client.post(url, { asset_ids: [a, b], tags: ["Summer", "RED"], mode: "add" });
    expect(added.json()).toEqual({ status: "ok", count: 2 });
    expect(await tagsOf(a)).toEqual(["poster", "red", "summer"]);
    expect(await tagsOf(b)).toEqual(["blue", "red", "summer"]);
    // Adding nothing changes nothing; replacing (the default, as before) sets the list.
    await admin.client.post(url, { asset_ids: [a], tags: [], mode: "add" });
    expect(await tagsOf(a)).toEqual(["poster", "red", "summer"]);
    await admin.client.post(url, { asset_ids: [a], tags: ["final"] });
    expect(await tagsOf(a)).toEqual(["final"]);
    await admin.client.post(url, { asset_ids: [b], tags: ["only"], mode: "replace" });
    expect(await tagsOf(b)).toEqual(["only"]);
    // An unknown mode is refused naming the field; a COMMENTER may not; an outsider finds nothing.
    const bad = await admin.client.post(url, { asset_ids: [a], tags: ["x"], mode: "merge" });
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json())).toContain("mode");
    const asCommenter = { asset_ids: [a], tags: ["x"], mode: "add" };
    expect((await members.COMMENTER!.client.post(url, asCommenter)).statusCode).toBe(403);
    expect((await other.admin.client.post(url, asCommenter)).statusCode).toBe(404);
    expect(await tagsOf(a)).toEqual(["final"]);
  });

  it("favourites belong to the member who set them; COMMENTER may favourite but not edit", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const id = await asset(ws.id, "fav.jpg");
    const c = members.COMMENTER!.client;
    expect(
      (await c.post(`/workspaces/${ws.id}/assets/favorites`, { asset_ids: [id], favorite: true })).statusCode,
    ).toBe(200);
    expect((await c.get(`/workspaces/${ws.id}/assets/${id}`)).json().favorite).toBe(true);
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${id}`)).json().favorite).toBe(false);
    await c.post(`/workspaces/${ws.id}/assets/favorites`, { asset_ids: [id], favorite: false });
    expect((await c.get(`/workspaces/${ws.id}/assets/${id}`)).json().favorite).toBe(false);
    const edits = [
      c.put(`/workspaces/${ws.id}/assets/${id}`, { name: "x" }),
      c.post(`/workspaces/${ws.id}/assets/tags`, { asset_ids: [id], tags: ["x"] }),
      c.post(`/workspaces/${ws.id}/assets/move`, { asset_ids: [id], destination_id: "root" }),
      c.del(`/workspaces/${ws.id}/assets`, { asset_ids: [id] }),
      c.post(`/workspaces/${ws.id}/recently-deleted/restore`, { asset_ids: [id] }),
      c.post(`/workspaces/${ws.id}/recently-deleted/purge`, { asset_ids: [id] }),
    ];
    for (const r of await Promise.all(edits)) expect(r.statusCode).toBe(403);
  });

  it("moves to a board (its only board afterwards) and to the root; foreign ids are 404 and change nothing", async () => {
    const { ws, admin } = await workspaceWith(env);
    const b1 = (await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "One" })).json();
    const b2 = (await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "Two" })).json();
    const id = await asset(ws.id, "m.jpg", [b1.id]);
    await admin.client.post(`/workspaces/${ws.id}/assets/move`, { asset_ids: [id], destination_id: b2.id });
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${id}`)).json().boards).toEqual([
      { id: b2.id, name: "Two" },
    ]);
    await admin.client.post(`/workspaces/${ws.id}/assets/move`, { asset_ids: [id], destination_id: "root" });
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${id}`)).json().boards).toEqual([]);
    const other = await workspaceWith(env);
    const foreign = await asset(other.ws.id, "f.jpg");
    const mixed = await admin.client.post(`/workspaces/${ws.id}/assets/move`, {
      asset_ids: [id, foreign],
      destination_id: b1.id,
    });
    expect(mixed.statusCode).toBe(404);
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${id}`)).json().boards).toEqual([]);
    const foreignBoard = (await other.admin.client.post(`/workspaces/${other.ws.id}/boards`, { name: "X" })).json();
    expect(
      (
        await admin.client.post(`/workspaces/${ws.id}/assets/move`, {
          asset_ids: [id],
          destination_id: foreignBoard.id,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe("delete and Recently deleted", () => {
  it("soft-deletes, lists who and when, restores into its boards, and deletes forever with the bytes", async () => {
    const { ws, admin } = await workspaceWith(env);
    const board = (await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "Keep" })).json();
    const id = await uploadBytes(admin.client, ws.id, "x.bin", Buffer.from("hello bytes"), board.id);
    const done = await waitForAsset(admin.client, ws.id, id);
    expect((await admin.client.del(`/workspaces/${ws.id}/assets`, { asset_ids: [id] })).json()).toEqual({
      status: "ok",
      count: 1,
    });
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${id}`)).statusCode).toBe(404);
    const trash = (await admin.client.get(`/workspaces/${ws.id}/recently-deleted`)).json();
    expect(trash.assets).toEqual([
      expect.objectContaining({
        id,
        name: "x.bin",
        kind: "asset",
        deleted_by: { id: admin.user.id, name: "Admin User" },
      }),
    ]);
    expect(new Date(trash.assets[0].purge_at).getTime() - new Date(trash.assets[0].deleted_at).getTime()).toBe(
      30 * 86_400_000,
    );

    expect(
      (await admin.client.post(`/workspaces/${ws.id}/recently-deleted/restore`, { asset_ids: [id] })).json(),
    ).toMatchObject({ assets: 1 });
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${id}`)).json().boards).toEqual([
      { id: board.id, name: "Keep" },
    ]);

    await admin.client.del(`/workspaces/${ws.id}/assets`, { asset_ids: [id] });
    const dir = path.join(env.rt.config.dataDir, "blobs", "media", done.directory);
    /** The asset's bytes in the store: its directory on disk, its keys on S3 (TEST_STORAGE=s3). */
    const held = async () => {
      if (testStorage === "disk") return readdir(dir).catch(() => []);
      const keys: string[] = [];
      for await (const o of env.rt.store.list(`media/${done.directory}/`)) keys.push(o.key);
      return keys;
    };
    expect((await held()).length).toBeGreaterThan(0);
    expect(
      (await admin.client.post(`/workspaces/${ws.id}/recently-deleted/purge`, { asset_ids: [id] })).json(),
    ).toMatchObject({ assets: 1 });
    if (testStorage === "disk") await expect(readdir(dir)).rejects.toThrow();
    else expect(await held()).toEqual([]);
    expect((await admin.client.get(`/workspaces/${ws.id}/recently-deleted`)).json().assets).toEqual([]);
    expect(
      (await admin.client.post(`/workspaces/${ws.id}/recently-deleted/restore`, { asset_ids: [], board_ids: [] }))
        .statusCode,
    ).toBe(422);
  });

  it("lists a deleted board once (not its sub-boards), restores it with its contents, purges after 30 days", async () => {
    const { ws, admin } = await workspaceWith(env);
    const top = (await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "Top" })).json();
    const sub = (await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "Sub", parent_id: top.id })).json();
    const inside = await asset(ws.id, "inside.jpg", [sub.id]);
    await admin.client.del(`/workspaces/${ws.id}/boards/${top.id}`);
    const trash = (await admin.client.get(`/workspaces/${ws.id}/recently-deleted`)).json();
    expect(trash.boards.map((b: { name: string }) => b.name)).toEqual(["Top"]);
    expect(trash.assets.map((a: { id: string }) => a.id)).toEqual([inside]);
    const r = await admin.client.post(`/workspaces/${ws.id}/recently-deleted/restore`, { board_ids: [top.id] });
    expect(r.json()).toMatchObject({ boards: 2, assets: 1 });
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${inside}`)).statusCode).toBe(200);

    await admin.client.del(`/workspaces/${ws.id}/boards/${top.id}`);
    await env.rt.db
      .updateTable("boards")
      .set({ deleted_at: new Date(Date.now() - 31 * 86_400_000) })
      .where("workspace_id", "=", ws.id)
      .execute();
    await env.rt.db
      .updateTable("assets")
      .set({ deleted_at: new Date(Date.now() - 31 * 86_400_000) })
      .where("id", "=", inside)
      .execute();
    await env.rt.services.trash.purgeExpired();
    const gone = await env.rt.db.selectFrom("boards").select("id").where("workspace_id", "=", ws.id).execute();
    expect(gone).toEqual([]);
    expect(
      await env.rt.db.selectFrom("assets").select("id").where("id", "=", inside).executeTakeFirst(),
    ).toBeUndefined();
  });

  it("an outsider cannot see another workspace's Recently deleted", async () => {
    const { ws } = await workspaceWith(env);
    const outsider = await signedInUser(env);
    expect((await outsider.client.get(`/workspaces/${ws.id}/recently-deleted`)).statusCode).toBe(404);
  });
});
