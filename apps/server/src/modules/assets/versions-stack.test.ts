import type { Asset, AssetVersion, Comment, CommentPage } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textPdf } from "../../../test/fixtures.ts";
import { type Client, createTestEnv, requestUrl, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { newVersion, png, processedAsset, processNow, sha256, uploadWith } from "../../../test/versions.ts";

/** Versions (issue 29): stack and detach, comments per version, an older version's download, duplicates. */
// Each test uploads and processes several files (PDF pages, on S3 too): minutes on a busy machine.
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
});
afterAll(() => env.close());

const versions = async (c: Client, ws: string, id: string) => {
  const res = await c.get(`/workspaces/${ws}/assets/${id}/versions`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AssetVersion[];
};
const comment = async (c: Client, ws: string, body: Record<string, unknown>) => {
  const res = await c.post(`/workspaces/${ws}/comments`, { content_type: "asset", ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Comment;
};
const comments = async (c: Client, ws: string, assetId: string, query = "") => {
  const res = await c.get(`/workspaces/${ws}/comments?content_type=asset&object_id=${assetId}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CommentPage;
};

describe("stack and detach", () => {
  it("stacks assets as versions by upload time (their comments follow), and detaches one back with its id", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const board = (await c.post(`/workspaces/${ws.id}/boards`, { name: "Round 1" })).json();
    const older = await processedAsset(env, c, ws.id, "draft-a.png", await png("#111111"));
    const target = (await uploadWith(c, ws.id, { name: "draft-b.png", board_id: board.id }, await png("#222222")))
      .asset_id;
    await processNow(env, target);
    const newest = await processedAsset(env, c, ws.id, "draft-c.png", await png("#333333", 640, 480));
    await comment(c, ws.id, { object_id: older, text: "On A" });
    await comment(c, ws.id, { object_id: newest, text: "On C" });
    await comment(c, ws.id, { object_id: target, text: "On B" });

    const stacked = await c.post(`/workspaces/${ws.id}/assets/${target}/versions/stack`, {
      asset_ids: [newest, older],
    });
    expect(stacked.statusCode, stacked.body).toBe(200);
    // The newest by upload time is current; the target keeps its id, name and board.
    expect(stacked.json()).toMatchObject({
      id: target,
      name: "draft-b.png",
      width: 640,
      version_count: 3,
      current_version: { id: newest, number: 3 },
      boards: [{ id: board.id, name: "Round 1" }],
      open_comment_count: 3,
    });
    expect((await versions(c, ws.id, target)).map((v) => [v.number, v.id, v.name, v.comment_count])).toEqual([
      [3, newest, "draft-c.png", 1],
      [2, target, "draft-b.png", 1],
      [1, older, "draft-a.png", 1],
    ]);
    expect((await c.get(`/workspaces/${ws.id}/assets/${older}`)).statusCode).toBe(404);
    const all = await comments(c, ws.id, target, "&all_versions=true");
    expect(all.results.map((r) => [r.text, r.version!.number])).toEqual([
      ["On A", 1],
      ["On C", 3],
      ["On B", 2],
    ]);
    // By default the current version's comments.
    expect((await comments(c, ws.id, target)).results.map((r) => r.text)).toEqual(["On C"]);

    // Refused: stacking onto itself (422), an asset elsewhere or gone (404).
    const self = await c.post(`/workspaces/${ws.id}/assets/${target}/versions/stack`, { asset_ids: [target] });
    expect(self.statusCode).toBe(422);
    expect(
      (await c.post(`/workspaces/${ws.id}/assets/${target}/versions/stack`, { asset_ids: [older] })).statusCode,
    ).toBe(404);
    // An asset still being processed is not stacked (409).
    const busy = (await uploadWith(c, ws.id, { name: "busy.png" }, await png("#444444"))).asset_id;
    const refused = await c.post(`/workspaces/${ws.id}/assets/${target}/versions/stack`, { asset_ids: [busy] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/busy\.png/);

    // Detach the first one: an asset of its own again, with its old id, its comments and the board.
    const detached = await c.post(`/workspaces/${ws.id}/assets/${target}/versions/${older}/detach`);
    expect(detached.statusCode, detached.body).toBe(200);
    expect(detached.json()).toMatchObject({
      id: older,
      name: "draft-a.png",
      version_count: 1,
      current_version: { id: older, number: 1 },
      boards: [{ id: board.id, name: "Round 1" }],
      open_comment_count: 1,
    });
    expect((await comments(c, ws.id, older)).results.map((r) => r.text)).toEqual(["On A"]);
    expect((await versions(c, ws.id, target)).map((v) => v.number)).toEqual([3, 2]);
    // Detaching the current one: the newest remaining becomes current; the new asset gets an id of its own.
    const again = await c.post(`/workspaces/${ws.id}/assets/${target}/versions/${newest}/detach`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ id: newest, width: 640 });
    const left = (await c.get(`/workspaces/${ws.id}/assets/${target}`)).json() as Asset;
    expect(left).toMatchObject({ version_count: 1, current_version: { id: target, number: 2 }, width: 320 });
    const only = await c.post(`/workspaces/${ws.id}/assets/${target}/versions/${target}/detach`);
    expect(only.statusCode).toBe(409);
  }, 120_000);
});

describe("comments belong to a version", () => {
  it("posts on the current version by default or on the one named, lists per version or all, counts every version's open threads", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const id = await processedAsset(env, c, ws.id, "brief.pdf", textPdf(3));
    const v1 = await comment(c, ws.id, {
      object_id: id,
      text: "v1 page 3",
      annotation_type: "POINT",
      x: 10,
      y: 10,
      page: 3,
    });
    expect(v1.version).toEqual({ id, number: 1 });
    const v2 = await newVersion(env, c, ws.id, id, "brief-2.png", await png("#808080"));
    const onV2 = await comment(c, ws.id, { object_id: id, text: "v2 note", annotation_type: "POINT", x: 50, y: 50 });
    expect(onV2.version).toEqual({ id: v2.version_id, number: 2 });
    // Annotations are checked against the version they are drawn on: v2 is a picture, v1 has 3 pages.
    const badPage = await c.post(`/workspaces/${ws.id}/comments`, {
      content_type: "asset",
      object_id: id,
      text: "no pages here",
      page: 2,
    });
    expect(badPage.statusCode).toBe(422);
    const onV1 = await comment(c, ws.id, { object_id: id, text: "v1 page 2", page: 2, version_id: id });
    expect(onV1.version).toEqual({ id, number: 1 });
    // A reply is on its thread's version.
    const reply = await comment(c, ws.id, { object_id: id, text: "agreed", parent_id: v1.id });
    expect(reply.version).toEqual({ id, number: 1 });

    expect((await comments(c, ws.id, id)).results.map((r) => r.text)).toEqual(["v2 note"]);
    expect((await comments(c, ws.id, id, `&version_id=${id}`)).results.map((r) => r.text)).toEqual([
      "v1 page 3",
      "v1 page 2",
    ]);
    expect((await comments(c, ws.id, id, "&all_versions=true")).count).toBe(3);
    const elsewhere = await processedAsset(env, c, ws.id, "other.png", await png("#909090"));
    expect(
      (await c.get(`/workspaces/${ws.id}/comments?content_type=asset&object_id=${id}&version_id=${elsewhere}`))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await c.post(`/workspaces/${ws.id}/comments`, {
          content_type: "asset",
          object_id: id,
          text: "x",
          version_id: elsewhere,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await c.get(`/workspaces/${ws.id}/comments?content_type=asset&object_id=${id}&all_versions=maybe`)).statusCode,
    ).toBe(422);

    const asset = (await c.get(`/workspaces/${ws.id}/assets/${id}`)).json() as Asset;
    expect(asset.open_comment_count).toBe(3);
    const listed = await versions(c, ws.id, id);
    expect(listed.map((v) => [v.number, v.comment_count, v.open_comment_count])).toEqual([
      [2, 1, 1],
      [1, 3, 2],
    ]);
  }, 120_000);
});

describe("an older version's download and duplicates", () => {
  it("downloads any version byte-identical (the current one by default), to a COMMENTER too", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const first = await png("#5070a0");
    const id = await processedAsset(env, admin.client, ws.id, "poster.png", first);
    const second = textPdf(1);
    const v2 = await newVersion(env, admin.client, ws.id, id, "poster.pdf", second);
    const c = members.COMMENTER!.client;
    const fetchOf = async (body: Record<string, unknown>) => {
      const res = await c.post(`/workspaces/${ws.id}/download`, body);
      expect(res.statusCode, res.body).toBe(200);
      const answer = res.json();
      const got = await requestUrl(env.app, "GET", answer.direct_url);
      expect(got.statusCode).toBe(200);
      return { answer, bytes: got.rawPayload };
    };
    const current = await fetchOf({ asset_ids: [id] });
    expect(current.bytes.equals(second)).toBe(true);
    // Named as the asset, with the current file's extension.
    expect(current.answer).toMatchObject({ filename: "poster.png.pdf", mime_type: "application/pdf" });
    const older = await fetchOf({ asset_ids: [id], version_id: id });
    expect(older.bytes.equals(first)).toBe(true);
    expect(older.answer).toMatchObject({ filename: "poster.png", mime_type: "image/png", size: first.length });
    expect((await fetchOf({ asset_ids: [id], version_id: v2.version_id })).bytes.equals(second)).toBe(true);
    // One asset only; a version of another asset is not there.
    const other = await processedAsset(env, admin.client, ws.id, "other.png", await png("#102030"));
    expect((await c.post(`/workspaces/${ws.id}/download`, { asset_ids: [id, other], version_id: id })).statusCode).toBe(
      422,
    );
    expect((await c.post(`/workspaces/${ws.id}/download`, { asset_ids: [other], version_id: id })).statusCode).toBe(
      404,
    );
  }, 120_000);

  it("lists the same bytes at the upload's start (live or deleted) and says duplicate_of once completed", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const board = (await c.post(`/workspaces/${ws.id}/boards`, { name: "Stock" })).json();
    const bytes = await png("#c0ffee");
    const original = (await uploadWith(c, ws.id, { name: "coffee.png", board_id: board.id }, bytes)).asset_id;
    await processNow(env, original);
    const trashed = await png("#bada55");
    const gone = await processedAsset(env, c, ws.id, "gone.png", trashed);
    await c.del(`/workspaces/${ws.id}/assets`, { asset_ids: [gone] });

    const start = async (data: Buffer, extra: Record<string, unknown> = {}) => {
      const res = await c.post(`/workspaces/${ws.id}/assets/upload`, {
        name: "again.png",
        size: data.length,
        sha256: sha256(data).toUpperCase(),
        ...extra,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect((await start(bytes)).duplicates).toEqual([
      {
        asset_id: original,
        version_id: original,
        version_number: 1,
        name: "coffee.png",
        boards: [{ id: board.id, name: "Stock" }],
        deleted: false,
      },
    ]);
    expect((await start(trashed)).duplicates).toEqual([expect.objectContaining({ asset_id: gone, deleted: true })]);
    expect((await start(await png("#000001"))).duplicates).toEqual([]);
    const bad = await c.post(`/workspaces/${ws.id}/assets/upload`, { name: "x.png", size: 3, sha256: "abc" });
    expect(bad.statusCode).toBe(422);

    // The upload goes on whatever the client was told; the server's own hash finds the duplicate.
    const copy = (await uploadWith(c, ws.id, { name: "copy.png" }, bytes)).asset_id;
    await processNow(env, copy);
    const answer = (await c.get(`/workspaces/${ws.id}/assets/${copy}`)).json() as Asset;
    expect(answer).toMatchObject({
      status: "COMPLETED",
      duplicate_of: { asset_id: original, version_id: original, name: "coffee.png" },
    });
    expect(((await c.get(`/workspaces/${ws.id}/assets/${original}`)).json() as Asset).duplicate_of).toBeNull();
    // A new version with the bytes of the asset's own first version says so too.
    const v = await newVersion(env, c, ws.id, original, "coffee-again.png", bytes);
    expect((await versions(c, ws.id, original)).find((x) => x.id === v.version_id)!.duplicate_of).toEqual({
      asset_id: original,
      version_id: original,
      name: "coffee.png",
    });
  }, 120_000);
});
