import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Client,
  createTestEnv,
  putBytes,
  type TestEnv,
  testStorage,
  workspaceWith,
} from "../../../test/harness.ts";
import { png, processedAsset } from "../../../test/versions.ts";

/**
 * An upload given up before it completes (issue 29: Skip at a duplicate after the start, Cancel, a
 * failed send): `POST …/assets/upload/abort` removes its asset, or its version, with the bytes sent
 * so far, at once rather than a day later.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
});
afterAll(() => env.close());

const onS3 = testStorage === "s3";
const MIB = 1024 * 1024;

async function start(c: Client, ws: string, body: Record<string, unknown>) {
  const res = await c.post(`/workspaces/${ws}/assets/upload`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    asset_id: string;
    upload_id: string;
    key: string;
    version_id?: string;
    parts?: Array<{ url: string; part_number: number }>;
  };
}
const abort = (c: Client, ws: string, up: { upload_id: string; key: string }) =>
  c.post(`/workspaces/${ws}/assets/upload/abort`, { upload_id: up.upload_id, key: up.key });
const uploadRow = (id: string) => env.rt.db.selectFrom("uploads").select("id").where("id", "=", id).executeTakeFirst();

describe("giving up an upload", () => {
  it("removes a new asset's upload at once, with the part already sent; completing it afterwards is 404", async () => {
    const { ws, admin } = await workspaceWith(env);
    const up = await start(admin.client, ws.id, { name: "big.bin", size: 12 * MIB });
    const part = up.parts?.[0];
    if (!part) throw new Error("expected a multipart upload");
    const sent = await putBytes(admin.client.app, part.url, randomBytes(8 * MIB));
    expect(sent.statusCode).toBe(200);
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${up.asset_id}`)).json().status).toBe("uploading");

    const res = await abort(admin.client, ws.id, up);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${up.asset_id}`)).statusCode).toBe(404);
    expect(await uploadRow(up.upload_id)).toBeUndefined();
    const staged: string[] = [];
    for await (const o of env.rt.store.list(`uploads/${up.upload_id}/`)) staged.push(o.key);
    expect(staged).toEqual([]);
    if (onS3) expect((await putBytes(admin.client.app, part.url, randomBytes(8 * MIB))).statusCode).toBe(404);
    const late = await admin.client.post(`/workspaces/${ws.id}/assets/upload/complete`, {
      upload_id: up.upload_id,
      key: up.key,
      parts: [{ part_number: 1, etag: String(sent.headers.etag) }],
    });
    expect(late.statusCode).toBe(404);
    // Twice is not there any more.
    expect((await abort(admin.client, ws.id, up)).statusCode).toBe(404);
  });

  it("a new version given up: the asset no longer says a newer one is on its way, and keeps its version", async () => {
    const { ws, admin } = await workspaceWith(env);
    const id = await processedAsset(env, admin.client, ws.id, "poster.png", await png("#204060"));
    const v2 = await start(admin.client, ws.id, { name: "poster-v2.png", size: 1000, version_of: id });
    const waiting = (await admin.client.get(`/workspaces/${ws.id}/assets/${id}`)).json();
    expect(waiting.newer_version).toMatchObject({ id: v2.version_id, number: 2 });

    expect((await abort(admin.client, ws.id, v2)).statusCode).toBe(200);
    const asset = (await admin.client.get(`/workspaces/${ws.id}/assets/${id}`)).json();
    expect(asset).toMatchObject({ status: "COMPLETED", version_count: 1, current_version: { id, number: 1 } });
    expect(asset.newer_version).toBeNull();
    const versions = (await admin.client.get(`/workspaces/${ws.id}/assets/${id}/versions`)).json();
    expect(versions.map((v: { id: string }) => v.id)).toEqual([id]);
    expect(await uploadRow(v2.upload_id)).toBeUndefined();
    // The next version takes the next number (the abandoned one never held bytes).
    const v3 = await start(admin.client, ws.id, { name: "poster-v3.png", size: 1000, version_of: id });
    expect(v3.version_id).not.toBe(v2.version_id);
  });

  it("refuses a completed upload (409), someone else's or a wrong key (404), and a bad body (422)", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR"]);
    const data = await png("#c0ffee");
    const done = await start(admin.client, ws.id, { name: "done.png", size: data.length });
    await processedAsset(env, admin.client, ws.id, "other.png", await png("#abcdef"));
    const direct = (
      await admin.client.post(`/workspaces/${ws.id}/assets/upload`, { name: "d.png", size: data.length })
    ).json();
    const put = await putBytes(admin.client.app, direct.direct_url, data);
    expect(put.statusCode).toBe(200);
    if (onS3)
      await admin.client.post(`/workspaces/${ws.id}/assets/upload/complete`, {
        upload_id: direct.upload_id,
        key: direct.key,
        parts: [{ part_number: 1, etag: String(put.headers.etag) }],
      });
    const complete = await abort(admin.client, ws.id, direct);
    expect(complete.statusCode).toBe(409);
    expect(complete.json().detail).toBe("This upload is already complete.");
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${direct.asset_id}`)).statusCode).toBe(200);

    // Another editor of the workspace cannot give up the admin's upload; a wrong key is not it either.
    expect((await abort(members.EDITOR!.client, ws.id, done)).statusCode).toBe(404);
    expect((await abort(admin.client, ws.id, { ...done, key: `${done.key}x` })).statusCode).toBe(404);
    const other = await workspaceWith(env);
    expect((await abort(admin.client, other.ws.id, done)).statusCode).toBe(404);
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${done.asset_id}`)).json().status).toBe("uploading");

    const bad = await admin.client.post(`/workspaces/${ws.id}/assets/upload/abort`, { upload_id: "nope" });
    expect(bad.statusCode).toBe(422);
  });

  it("is an uploader's: a commenter gets 403, a signed-in outsider 404", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const up = await start(admin.client, ws.id, { name: "x.bin", size: 10 });
    const outsider = (await workspaceWith(env)).admin.client;
    expect((await abort(members.COMMENTER!.client, ws.id, up)).statusCode).toBe(403);
    expect((await abort(outsider, ws.id, up)).statusCode).toBe(404);
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${up.asset_id}`)).json().status).toBe("uploading");
    expect((await abort(admin.client, ws.id, up)).statusCode).toBe(200);
  });
});
