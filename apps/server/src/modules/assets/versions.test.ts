import { type Asset, type AssetVersion, VERSION_MESSAGES } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textPdf } from "../../../test/fixtures.ts";
import { Client, createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { newVersion, png, processedAsset, processNow, uploadWith } from "./versions.fixture.ts";

/**
 * Versions (issue 29): a new version keeps the asset's place; media switch only when it is COMPLETED;
 * make current, delete (never the last), Recently deleted and restore. No workers in this env: each
 * version is processed by the test (processNow), so the asset is seen before and after.
 */
// Each test uploads and processes several files (PDF pages, on S3 too): minutes on a busy machine.
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
});
afterAll(() => env.close());

const getAsset = async (c: Client, ws: string, id: string) => {
  const res = await c.get(`/workspaces/${ws}/assets/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Asset;
};
const versions = async (c: Client, ws: string, id: string) => {
  const res = await c.get(`/workspaces/${ws}/assets/${id}/versions`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AssetVersion[];
};

describe("a new version", () => {
  it("keeps the asset's id, name, boards, tags, fields, favourite, share link and comments; media switch when COMPLETED", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const board = (await c.post(`/workspaces/${ws.id}/boards`, { name: "Campaign" })).json();
    const v1 = await uploadWith(c, ws.id, { name: "poster.png", board_id: board.id }, await png("#c03020"));
    await processNow(env, v1.asset_id);
    const id = v1.asset_id;
    const first = await getAsset(c, ws.id, id);
    expect(first).toMatchObject({
      file_type: "IMAGE",
      version_count: 1,
      current_version: { id, number: 1 },
      newer_version: null,
    });
    // Everything that belongs to the asset rather than to its file.
    await c.post(`/workspaces/${ws.id}/assets/tags`, { asset_ids: [id], tags: ["launch"] });
    await c.post(`/workspaces/${ws.id}/assets/favorites`, { asset_ids: [id], favorite: true });
    const field = (await c.post(`/workspaces/${ws.id}/fields`, { title: "Client", field_type: "TEXT" })).json();
    await c.post(`/workspaces/${ws.id}/field-values/${field.id}`, { asset_ids: [id], text_value: "ACME" });
    const link = (await c.get(`/workspaces/${ws.id}/share/asset/${id}?board_id=${board.id}`)).json();
    const comment = await c.post(`/workspaces/${ws.id}/comments`, {
      content_type: "asset",
      object_id: id,
      text: "Make the logo bigger",
    });
    expect(comment.json().version).toEqual({ id, number: 1 });

    // v2, of another type (a PDF after a PNG): uploaded, not processed yet.
    const v2 = await newVersion(env, c, ws.id, id, "poster-v2.pdf", textPdf(2), { process: false });
    expect(v2).toMatchObject({ asset_id: id, version_number: 2 });
    expect(v2.version_id).not.toBe(id);
    const waiting = await getAsset(c, ws.id, id);
    // The previous version still answers, and says a newer one is processing.
    expect(waiting).toMatchObject({
      file_type: "IMAGE",
      thumbnail_url: first.thumbnail_url,
      current_version: { id, number: 1 },
      newer_version: { id: v2.version_id, number: 2, status: "processing" },
      status: "COMPLETED",
    });

    await processNow(env, id, v2.version_id);
    const after = await getAsset(c, ws.id, id);
    expect(after).toMatchObject({
      id,
      name: "poster.png",
      file_type: "DOCUMENT",
      page_count: 2,
      status: "COMPLETED",
      version_count: 2,
      current_version: { id: v2.version_id, number: 2 },
      newer_version: null,
      boards: [{ id: board.id, name: "Campaign" }],
      tags: ["launch"],
      favorite: true,
      open_comment_count: 1,
    });
    expect(after.thumbnail_url).not.toBe(first.thumbnail_url);
    expect(after.field_chips).toEqual([expect.objectContaining({ field_id: field.id, display: "ACME" })]);
    // The share link is the asset's, unchanged, and shows the current version.
    const again = (await c.get(`/workspaces/${ws.id}/share/asset/${id}?board_id=${board.id}`)).json();
    expect(again.token).toBe(link.token);
    const visitor = new Client(env.app);
    const shared = await visitor.get(`/share/${link.token}`);
    expect(shared.statusCode, shared.body).toBe(200);
    expect(JSON.stringify(shared.json())).toContain(v2.version_id!);

    const list = await versions(c, ws.id, id);
    expect(list.map((v) => [v.number, v.is_current, v.file_type, v.name, v.comment_count])).toEqual([
      [2, true, "DOCUMENT", "poster-v2.pdf", 0],
      [1, false, "IMAGE", "poster.png", 1],
    ]);
    expect(list[0]!.uploaded_by).toEqual({ id: admin.user.id, name: "Admin User" });
    // The older version's media are still served.
    expect((await c.get(list[1]!.thumbnail_url!)).statusCode).toBe(200);
    expect((await c.get(list[0]!.pages[0]!.url)).statusCode).toBe(200);

    // Listed once, as its current version; has_versions filters.
    const listed = (await c.post(`/workspaces/${ws.id}/assets`, { page_size: 100 })).json();
    expect(listed.data.filter((a: Asset) => a.id === id)).toEqual([
      expect.objectContaining({ version_count: 2, file_type: "DOCUMENT" }),
    ]);
    const withVersions = (await c.post(`/workspaces/${ws.id}/assets`, { has_versions: true })).json();
    expect(withVersions.data.map((a: Asset) => a.id)).toEqual([id]);
    const plain = await processedAsset(env, c, ws.id, "single.png", await png("#205080"));
    const without = (await c.post(`/workspaces/${ws.id}/assets`, { has_versions: false })).json();
    expect(without.data.map((a: Asset) => a.id)).toEqual([plain]);
    const byType = (await c.post(`/workspaces/${ws.id}/assets`, { file_type: { includes: ["DOCUMENT"] } })).json();
    expect(byType.data.map((a: Asset) => a.id)).toEqual([id]);
  }, 120_000);

  it("refuses version_of for an asset elsewhere (404), a COMMENTER (403), and a bad id (422)", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER", "EDITOR"]);
    const other = await workspaceWith(env);
    const id = await processedAsset(env, admin.client, ws.id, "a.png", await png("#101010"));
    const foreign = await processedAsset(env, other.admin.client, other.ws.id, "b.png", await png("#202020"));
    const start = (c: Client, version_of: string) =>
      c.post(`/workspaces/${ws.id}/assets/upload`, { name: "v.png", size: 10, version_of });
    expect((await start(admin.client, foreign)).statusCode).toBe(404);
    expect((await start(members.COMMENTER!.client, id)).statusCode).toBe(403);
    expect((await start(admin.client, "nope")).statusCode).toBe(422);
    const editor = await start(members.EDITOR!.client, id);
    expect(editor.statusCode, editor.body).toBe(200);
    expect(editor.json()).toMatchObject({ asset_id: id, version_number: 2 });
    // An upload under way is not a version yet, but the asset says one is coming.
    expect(await getAsset(admin.client, ws.id, id)).toMatchObject({
      version_count: 1,
      newer_version: { number: 2, status: "uploading" },
    });
  }, 120_000);

  it("a version that fails keeps the current one and says so; the AI tags follow the current version", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const id = await processedAsset(env, c, ws.id, "tagged.png", await png("#30a030"));
    await env.rt.db
      .insertInto("ai_tags")
      .values({ asset_id: id, workspace_id: ws.id, label: "leaf", confidence: 0.9, type: "object" })
      .execute();
    const whole = await png("#a03030", 800, 600);
    const broken = await newVersion(env, c, ws.id, id, "broken.png", whole.subarray(0, Math.floor(whole.length / 3)));
    expect(await getAsset(c, ws.id, id)).toMatchObject({
      status: "COMPLETED",
      current_version: { id, number: 1 },
      newer_version: { id: broken.version_id, number: 2, status: "error" },
      ai_tags: ["leaf"],
    });
    const good = await newVersion(env, c, ws.id, id, "good.png", await png("#3030a0"));
    const now = await getAsset(c, ws.id, id);
    expect(now).toMatchObject({
      current_version: { id: good.version_id, number: 3 },
      newer_version: null,
      ai_tags: [],
    });
    // Back to v1: its AI tags come back with it.
    const back = await c.post(`/workspaces/${ws.id}/assets/${id}/versions/${id}/current`);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ current_version: { id, number: 1 }, ai_tags: ["leaf"] });
    // A failed version cannot be made current.
    const refused = await c.post(`/workspaces/${ws.id}/assets/${id}/versions/${broken.version_id}/current`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(VERSION_MESSAGES.notFinished);
  }, 120_000);

  it("a version takes over when COMPLETED if newer than the current one, whatever became of later uploads", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const id = await processedAsset(env, c, ws.id, "order.png", await png("#406080"));
    const v2 = await newVersion(env, c, ws.id, id, "order-2.png", await png("#608040"), { process: false });
    // v3 started and never sent (abandoned): v2 still takes over once it is processed.
    const v3 = await c.post(`/workspaces/${ws.id}/assets/upload`, { name: "order-3.png", size: 10, version_of: id });
    expect(v3.statusCode, v3.body).toBe(200);
    await processNow(env, id, v2.version_id);
    expect(await getAsset(c, ws.id, id)).toMatchObject({
      current_version: { id: v2.version_id, number: 2 },
      newer_version: { id: v3.json().version_id, number: 3, status: "uploading" },
    });
    // v5 done before v4: v5 takes over, and v4 done after it does not.
    const v4 = await newVersion(env, c, ws.id, id, "order-4.png", await png("#804060"), { process: false });
    const v5 = await newVersion(env, c, ws.id, id, "order-5.png", await png("#408060"), { process: false });
    await processNow(env, id, v5.version_id);
    expect(await getAsset(c, ws.id, id)).toMatchObject({ current_version: { number: 5 }, newer_version: null });
    await processNow(env, id, v4.version_id);
    expect(await getAsset(c, ws.id, id)).toMatchObject({ current_version: { number: 5 } });
    // The abandoned upload is cleaned up after a day: its version row goes, the others stay. (Only
    // this upload is aged: the database is shared with the other files' uploads under way.)
    await env.rt.db
      .updateTable("uploads")
      .set({ created_at: new Date(Date.now() - 25 * 3600_000) })
      .where("id", "=", v3.json().upload_id)
      .execute();
    expect(await env.rt.services.uploads.cleanupAbandoned()).toBeGreaterThanOrEqual(1);
    expect((await versions(c, ws.id, id)).map((v) => v.number)).toEqual([5, 4, 2, 1]);
    expect(await getAsset(c, ws.id, id)).toMatchObject({ version_count: 4, newer_version: null });
  }, 120_000);
});

describe("make current, delete, Recently deleted", () => {
  it("makes an older version current (recorded), deletes the current one (the newest remaining takes over), never the last", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const id = await processedAsset(env, c, ws.id, "logo.png", await png("#aa0000"));
    const v2 = await newVersion(env, c, ws.id, id, "logo-2.png", await png("#00aa00", 400, 300));
    const v3 = await newVersion(env, c, ws.id, id, "logo-3.png", await png("#0000aa", 500, 250));
    expect(await getAsset(c, ws.id, id)).toMatchObject({ width: 500, current_version: { number: 3 } });

    const made = await c.post(`/workspaces/${ws.id}/assets/${id}/versions/${v2.version_id}/current`);
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ width: 400, height: 300, current_version: { id: v2.version_id, number: 2 } });
    const listed = await versions(c, ws.id, id);
    expect(listed.find((v) => v.id === v2.version_id)).toMatchObject({
      is_current: true,
      made_current_by: { id: admin.user.id, name: "Admin User" },
    });
    expect(listed.find((v) => v.id === v2.version_id)!.made_current_at).not.toBeNull();

    // Deleting the current version (v2): the newest remaining (v3) becomes current.
    const del = await c.del(`/workspaces/${ws.id}/assets/${id}/versions/${v2.version_id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toMatchObject({ width: 500, version_count: 2, current_version: { id: v3.version_id } });
    expect((await versions(c, ws.id, id)).map((v) => v.number)).toEqual([3, 1]);

    // In Recently deleted, restorable into its asset.
    const trash = (await c.get(`/workspaces/${ws.id}/recently-deleted`)).json();
    expect(trash.versions).toEqual([
      expect.objectContaining({
        id: v2.version_id,
        kind: "version",
        asset_id: id,
        version_number: 2,
        name: "logo.png",
        deleted_by: { id: admin.user.id, name: "Admin User" },
      }),
    ]);
    expect(trash.assets).toEqual([]);
    const restored = await c.post(`/workspaces/${ws.id}/recently-deleted/restore`, { version_ids: [v2.version_id] });
    expect(restored.json()).toMatchObject({ versions: 1 });
    expect((await versions(c, ws.id, id)).map((v) => [v.number, v.is_current])).toEqual([
      [3, true],
      [2, false],
      [1, false],
    ]);

    // Down to one version: that one is never deleted.
    for (const v of [v3.version_id!, v2.version_id!]) {
      const r = await c.del(`/workspaces/${ws.id}/assets/${id}/versions/${v}`);
      expect(r.statusCode, r.body).toBe(200);
    }
    const last = await c.del(`/workspaces/${ws.id}/assets/${id}/versions/${id}`);
    expect(last.statusCode).toBe(409);
    expect(last.json().detail).toBe(VERSION_MESSAGES.lastVersion);
    expect(await getAsset(c, ws.id, id)).toMatchObject({ width: 320, version_count: 1, current_version: { id } });

    // Purged for good: its bytes go, the others stay.
    const dir = `media/${ws.id}/${v3.version_id}/`;
    const held = async (prefix: string) => {
      const keys: string[] = [];
      for await (const o of env.rt.store.list(prefix)) keys.push(o.key);
      return keys;
    };
    expect((await held(dir)).length).toBeGreaterThan(0);
    const purged = await c.post(`/workspaces/${ws.id}/recently-deleted/purge`, { version_ids: [v3.version_id] });
    expect(purged.json()).toMatchObject({ versions: 1 });
    expect(await held(dir)).toEqual([]);
    expect((await held(`media/${ws.id}/${id}/`)).length).toBeGreaterThan(0);
    expect(
      (await c.get(`/workspaces/${ws.id}/recently-deleted`)).json().versions.map((v: { id: string }) => v.id),
    ).toEqual([v2.version_id]);

    // A version of another asset, or no version at all: 404.
    const elsewhere = await processedAsset(env, c, ws.id, "other.png", await png("#333333"));
    expect((await c.post(`/workspaces/${ws.id}/assets/${id}/versions/${elsewhere}/current`)).statusCode).toBe(404);
    expect((await c.del(`/workspaces/${ws.id}/assets/${elsewhere}/versions/${id}`)).statusCode).toBe(404);
  }, 120_000);

  it("purges every version's bytes with the asset, and after 30 days a deleted version alone", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const id = await processedAsset(env, c, ws.id, "gone.png", await png("#123456"));
    const v2 = await newVersion(env, c, ws.id, id, "gone-2.png", await png("#654321"));
    const v3 = await newVersion(env, c, ws.id, id, "gone-3.png", await png("#abcdef"));
    await c.del(`/workspaces/${ws.id}/assets/${id}/versions/${v3.version_id}`);
    await env.rt.db
      .updateTable("asset_versions")
      .set({ deleted_at: new Date(Date.now() - 31 * 86_400_000) })
      .where("id", "=", v3.version_id!)
      .execute();
    await env.rt.services.trash.purgeExpired();
    expect(
      await env.rt.db.selectFrom("asset_versions").select("id").where("id", "=", v3.version_id!).execute(),
    ).toEqual([]);
    const count = async (prefix: string) => {
      let n = 0;
      for await (const _ of env.rt.store.list(prefix)) n++;
      return n;
    };
    expect(await count(`media/${ws.id}/${v3.version_id}/`)).toBe(0);

    await c.del(`/workspaces/${ws.id}/assets`, { asset_ids: [id] });
    const purged = await c.post(`/workspaces/${ws.id}/recently-deleted/purge`, { asset_ids: [id] });
    expect(purged.json()).toMatchObject({ assets: 1 });
    expect(await count(`media/${ws.id}/${id}/`)).toBe(0);
    expect(await count(`media/${ws.id}/${v2.version_id}/`)).toBe(0);
  }, 120_000);
});
