import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Client,
  createTestEnv,
  putBytes,
  type TestEnv,
  waitForAsset,
  workspaceWith,
} from "../../../test/harness.ts";
import { type S3TestServer, startS3Server } from "../../../test/s3-server.ts";

/**
 * What only S3 storage has (always on S3, whatever TEST_STORAGE says; the shared upload suite runs
 * on S3 too under TEST_STORAGE=s3): CORS, our part route unused, completing an upload S3 already
 * assembled.
 */
let s3: S3TestServer;
let env: TestEnv;
beforeAll(async () => {
  s3 = await startS3Server();
  env = await createTestEnv({ ...s3.env, AI_TAGS: "0" });
});
afterAll(async () => {
  await env?.close();
  await s3?.close();
});

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const put = (c: Client, url: string, data: Buffer) => putBytes(c.app, url, data, { origin: "http://hangar.test" });
async function initUpload(c: Client, ws: string, body: Record<string, unknown>) {
  const res = await c.post(`/workspaces/${ws}/assets/upload`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe("uploads on S3", () => {
  it("the browser talks to S3: CORS preflight allows PUT, our own part route is not used", async () => {
    const { ws, admin } = await workspaceWith(env);
    const init = await initUpload(admin.client, ws.id, { name: "c.bin", size: 10 });
    const pre = await fetch(init.direct_url, {
      method: "OPTIONS",
      headers: {
        origin: "http://hangar.test",
        "access-control-request-method": "PUT",
        "access-control-request-headers": "content-type",
      },
    });
    expect(pre.status).toBe(200);
    expect(pre.headers.get("access-control-allow-methods")).toMatch(/PUT/);
    const ours = await admin.client.app.inject({
      method: "PUT",
      url: `/api/v1/uploads/${init.upload_id}/parts/1?exp=9999999999&sig=x`,
      payload: randomBytes(10),
      headers: { "content-type": "application/octet-stream" },
    });
    expect(ours.statusCode).toBe(404);
  });

  it("a complete that failed after S3 assembled the object can be completed again", async () => {
    const { ws, admin } = await workspaceWith(env);
    const data = randomBytes(9 * 1024 * 1024);
    const init = await initUpload(admin.client, ws.id, { name: "again.bin", size: data.length });
    const parts = [];
    for (const p of init.parts) {
      const r = await put(admin.client, p.url, data.subarray(p.start_byte, p.end_byte + 1));
      parts.push({ part_number: p.part_number, etag: String(r.headers.etag) });
    }
    // S3 completes, then the API dies before recording it: the store says "assembled".
    const row = await env.rt.db
      .selectFrom("uploads")
      .selectAll()
      .where("id", "=", init.upload_id)
      .executeTakeFirstOrThrow();
    const ref = {
      id: row.id,
      key: row.key,
      size: row.size,
      partSize: row.part_size,
      partCount: row.part_count,
      kind: row.kind,
      storeUploadId: row.s3_upload_id,
    };
    await env.rt.store.completeUpload(
      ref,
      parts.map((p) => ({ partNumber: p.part_number, etag: p.etag })),
    );
    expect(await env.rt.store.receivedParts(ref)).toBe("assembled");
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${init.asset_id}`)).json().status).toBe("uploading");
    const res = await admin.client.post(`/workspaces/${ws.id}/assets/upload/complete`, {
      upload_id: init.upload_id,
      key: init.key,
      parts,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ size: data.length, sha256: sha(data) });
    expect((await waitForAsset(admin.client, ws.id, init.asset_id)).status).toBe("COMPLETED");
  });

  it("a direct upload whose client never completes (the spec's client) is finished by the minute job", async () => {
    const { ws, admin } = await workspaceWith(env);
    const data = randomBytes(4000);
    const sent = await initUpload(admin.client, ws.id, { name: "silent.bin", size: data.length });
    const waiting = await initUpload(admin.client, ws.id, { name: "never-sent.bin", size: 10 });
    expect((await put(admin.client, sent.direct_url, data)).statusCode).toBe(200);
    // Not within its first 15 s: the client may still be about to complete it itself.
    expect(await env.rt.services.uploads.completeArrivedDirect()).toBe(0);
    expect(await env.rt.services.uploads.completeArrivedDirect(Date.now() + 60_000)).toBe(1);
    const done = await waitForAsset(admin.client, ws.id, sent.asset_id);
    expect(done).toMatchObject({ status: "COMPLETED", size: data.length, sha256: sha(data) });
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${waiting.asset_id}`)).json().status).toBe("uploading");
    // The client's own complete afterwards answers the same.
    const again = await admin.client.post(`/workspaces/${ws.id}/assets/upload/complete`, {
      upload_id: sent.upload_id,
      key: sent.key,
      parts: [],
    });
    expect(again.json()).toMatchObject({ asset_id: sent.asset_id, sha256: sha(data) });
  });
});
