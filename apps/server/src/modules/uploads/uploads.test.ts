import { createHash, randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type Client,
  createTestEnv,
  multipartBody,
  putBytes,
  signedInUser,
  type TestEnv,
  testStorage,
  waitForAsset,
  workspaceWith,
} from "../../../test/harness.ts";
import { UPLOAD_URL_TTL_SECONDS } from "./service.ts";

/**
 * Random bytes behind a fixed head that is no file signature: random data alone sometimes starts like
 * an MPEG audio frame (0xFFE…), and the asset would then be typed AUDIO instead of OTHER.
 */
const opaqueBytes = (n: number) => Buffer.concat([Buffer.from("hangar-test-data"), randomBytes(n - 16)]);

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ MAX_UPLOAD_BYTES: String(64 * 1024 * 1024), AI_TAGS: "0" });
});
afterAll(() => env.close());

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
/** The same suite runs on disk and on S3 (TEST_STORAGE=s3): there the bytes go to S3's presigned URLs. */
const onS3 = testStorage === "s3";
// A browser's PUT to S3 is a cross-origin request: the Origin makes S3 apply the bucket's CORS rules.
const put = (c: Client, url: string, data: Buffer) =>
  putBytes(c.app, url, data, onS3 ? { origin: "http://hangar.test" } : {});
/** Forges a handed-out upload URL: ours (exp/sig) or S3's (X-Amz-Signature). */
const forged = (url: string) =>
  onS3
    ? url.replace(/X-Amz-Signature=[0-9a-f]+/, `X-Amz-Signature=${"0".repeat(64)}`)
    : url.replace(/sig=[^&]+/, "sig=x");
/**
 * Runs `fn` a minute after a handed-out upload URL's lifetime ends, the URL left as signed: the clock
 * moves (Date only), and our signer and the S3 server both read that clock. An edited expiry would
 * break the signature instead and prove nothing about the expiry check.
 */
async function pastUploadUrlLifetime<T>(fn: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + (UPLOAD_URL_TTL_SECONDS + 60) * 1000 });
  try {
    return await fn();
  } finally {
    vi.useRealTimers();
  }
}
/**
 * On disk a direct upload's one PUT finishes it; S3 cannot tell us, so the client completes it (the
 * web app always does).
 */
async function finishDirect(c: Client, ws: string, init: { upload_id: string; key: string }, etag: string) {
  if (!onS3) return;
  const res = await c.post(`/workspaces/${ws}/assets/upload/complete`, {
    upload_id: init.upload_id,
    key: init.key,
    parts: [{ part_number: 1, etag }],
  });
  expect(res.statusCode, res.body).toBe(200);
}
/** What the store still holds under an upload's staging prefix. */
async function stagedKeys(uploadId: string) {
  const keys: string[] = [];
  for await (const o of env.rt.store.list(`uploads/${uploadId}/`)) keys.push(o.key);
  return keys;
}

async function initUpload(c: Client, ws: string, body: Record<string, unknown>) {
  const res = await c.post(`/workspaces/${ws}/assets/upload`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe("single (direct) upload", () => {
  it("creates the asset, takes the bytes at the signed URL with an ETag, and processes it", async () => {
    const { ws, admin } = await workspaceWith(env);
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#2266dd" } })
      .png()
      .toBuffer();
    const init = await initUpload(admin.client, ws.id, {
      name: "blue.png",
      size: png.length,
      content_type: "image/png",
    });
    expect(init.direct_url).toMatch(
      onS3
        ? /^http:\/\/127\.0\.0\.1:\d+\/hangar-test\/uploads\/[0-9a-f-]+\/data\?.*X-Amz-Signature=[0-9a-f]{64}/
        : /^\/api\/v1\/uploads\/[0-9a-f-]+\/parts\/1\?exp=\d+&sig=/,
    );
    expect(init.parts).toBeUndefined();
    const before = (await admin.client.get(`/workspaces/${ws.id}/assets/${init.asset_id}`)).json();
    expect(before).toMatchObject({ status: "uploading", is_temp: true, name: "blue.png", url: null });

    const res = await put(admin.client, init.direct_url, png);
    expect(res.statusCode).toBe(200);
    // Opaque, per write (S3 style): quoted hex, echoed back at complete.
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(String(res.headers["access-control-expose-headers"])).toMatch(/ETag/i);
    await finishDirect(admin.client, ws.id, init, String(res.headers.etag));

    const done = await waitForAsset(admin.client, ws.id, init.asset_id);
    expect(done).toMatchObject({
      status: "COMPLETED",
      is_temp: false,
      file_type: "IMAGE",
      mime_type: "image/png",
      width: 640,
      height: 480,
    });
    expect(done.sha256).toBe(sha(png));
    expect(done.colors.simplified).toContain("blue");
    const thumb = await admin.client.get(done.thumbnail_url);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers["content-type"]).toBe("image/jpeg");
    expect(thumb.headers["cache-control"]).toMatch(/max-age=31536000/);
    const original = await admin.client.get(done.url);
    expect(sha(original.rawPayload)).toBe(sha(png));
    // Another workspace's member gets 404 for the media, signed or not... unless the URL is signed.
    const outsider = await signedInUser(env);
    expect((await outsider.client.get(done.thumbnail_url)).statusCode).toBe(404);
    expect((await outsider.client.get(done.url)).statusCode).toBe(200);
    expect((await outsider.client.get(done.url.replace(/sig=[^&]+/, "sig=forged"))).statusCode).toBe(404);
  });

  it("refuses a forged or expired URL and a body of the wrong size", async () => {
    const { ws, admin } = await workspaceWith(env);
    const init = await initUpload(admin.client, ws.id, { name: "a.bin", size: 100 });
    expect((await put(admin.client, forged(init.direct_url), randomBytes(100))).statusCode).toBe(403);
    const late = await pastUploadUrlLifetime(() => put(admin.client, init.direct_url, randomBytes(100)));
    expect(late.statusCode, late.body).toBe(403);
    expect(late.body).toMatch(onS3 ? /Request has expired/ : /expired/);
    // Our route counts the bytes; S3 refuses a length other than the signed one.
    const big = await put(admin.client, init.direct_url, randomBytes(101));
    expect(big.statusCode).toBe(onS3 ? 403 : 413);
    const small = await put(admin.client, init.direct_url, randomBytes(99));
    expect(small.statusCode).toBe(onS3 ? 403 : 422);
    const notSent = await admin.client.post(`/workspaces/${ws.id}/assets/upload/complete`, {
      upload_id: init.upload_id,
      key: init.key,
      parts: [],
    });
    expect(notSent.statusCode).toBe(422);
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${init.asset_id}`)).json().status).toBe("uploading");
  });

  it("takes multipart form fields or the file part's metadata, like the spec's client", async () => {
    const { ws, admin } = await workspaceWith(env);
    const data = opaqueBytes(3000);
    const form = multipartBody([], [{ field: "file", filename: "notes.bin", type: "application/x-thing", data }]);
    const res = await admin.client.request("POST", `/workspaces/${ws.id}/assets/upload`, undefined, form);
    expect(res.statusCode, res.body).toBe(200);
    const a = (await admin.client.get(`/workspaces/${ws.id}/assets/${res.json().asset_id}`)).json();
    expect(a).toMatchObject({ name: "notes.bin", size: 3000, status: "uploading" });
  });

  it("enforces the size limit (413), roles (COMMENTER 403) and the board's workspace (404)", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const tooBig = await admin.client.post(`/workspaces/${ws.id}/assets/upload`, { name: "x", size: 65 * 1024 * 1024 });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().detail).toMatch(/limit/);
    expect(
      (await members.COMMENTER!.client.post(`/workspaces/${ws.id}/assets/upload`, { name: "x", size: 1 })).statusCode,
    ).toBe(403);
    const other = await workspaceWith(env);
    const foreignBoard = (await other.admin.client.post(`/workspaces/${other.ws.id}/boards`, { name: "B" })).json();
    expect(
      (await admin.client.post(`/workspaces/${ws.id}/assets/upload`, { name: "x", size: 1, board_id: foreignBoard.id }))
        .statusCode,
    ).toBe(404);
    const bad = await admin.client.post(`/workspaces/${ws.id}/assets/upload`, { name: " ", size: -1 });
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(["name", "size"]);
  });
});

describe("multipart upload", () => {
  it("uploads parts, re-sends one, checks every ETag, completes once, answers the same twice", async () => {
    const { ws, admin } = await workspaceWith(env);
    const board = (await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "Raw" })).json();
    const data = opaqueBytes(12 * 1024 * 1024 + 123);
    const init = await initUpload(admin.client, ws.id, { name: "big.bin", size: data.length, board_id: board.id });
    expect(init.parts).toHaveLength(2);
    expect(init.parts[0]).toMatchObject({ part_number: 1, start_byte: 0, end_byte: 8 * 1024 * 1024 - 1 });
    expect(init.parts[1].end_byte).toBe(data.length - 1);
    const slice = (p: { start_byte: number; end_byte: number }) => data.subarray(p.start_byte, p.end_byte + 1);

    const e1 = (await put(admin.client, init.parts[0].url, slice(init.parts[0]))).headers.etag as string;
    const complete = (parts: Array<{ part_number: number; etag: string }>) =>
      admin.client.post(`/workspaces/${ws.id}/assets/upload/complete`, {
        upload_id: init.upload_id,
        key: init.key,
        parts,
      });
    // A part missing: 422, nothing changes.
    const missing = await complete([{ part_number: 1, etag: e1 }]);
    expect(missing.statusCode).toBe(422);
    const notUploaded = await complete([
      { part_number: 1, etag: e1 },
      { part_number: 2, etag: '"abc"' },
    ]);
    expect(notUploaded.statusCode).toBe(422);
    // Part 2 first sent wrong, then re-sent right: the second replaces the first.
    const wrong = Buffer.from(slice(init.parts[1]));
    wrong[0] = (wrong[0]! + 1) % 256;
    const eWrong = (await put(admin.client, init.parts[1].url, wrong)).headers.etag as string;
    const e2 = (await put(admin.client, init.parts[1].url, slice(init.parts[1]))).headers.etag as string;
    expect(e2).not.toBe(eWrong);
    const stale = await complete([
      { part_number: 1, etag: e1 },
      { part_number: 2, etag: eWrong },
    ]);
    expect(stale.statusCode).toBe(422);
    expect(stale.json().detail).toMatch(/ETag/);
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${init.asset_id}`)).json().status).toBe("uploading");

    const ok = await complete([
      { part_number: 2, etag: e2 },
      { part_number: 1, etag: e1.replace(/"/g, "") },
    ]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ status: "ok", asset_id: init.asset_id, size: data.length, sha256: sha(data) });
    const again = await complete([
      { part_number: 1, etag: e1 },
      { part_number: 2, etag: e2 },
    ]);
    expect(again.json()).toEqual(ok.json());
    const done = await waitForAsset(admin.client, ws.id, init.asset_id);
    expect(done).toMatchObject({
      status: "COMPLETED",
      file_type: "OTHER",
      size: data.length,
      boards: [{ id: board.id, name: "Raw" }],
    });
    expect(sha((await admin.client.get(done.url)).rawPayload)).toBe(sha(data));
    // Parts are gone once assembled.
    if (onS3) {
      expect(await stagedKeys(init.upload_id)).toEqual([]);
      expect((await put(admin.client, init.parts[0].url, slice(init.parts[0]))).statusCode).toBe(404); // NoSuchUpload
    } else {
      const partsDir = path.join(env.rt.config.dataDir, "blobs", "uploads", init.upload_id);
      await expect(readdir(partsDir)).rejects.toThrow();
    }
  });

  it("serves byte ranges of the original", async () => {
    const { ws, admin } = await workspaceWith(env);
    const data = opaqueBytes(10_000);
    const init = await initUpload(admin.client, ws.id, { name: "r.bin", size: data.length });
    const sent = await put(admin.client, init.direct_url, data);
    await finishDirect(admin.client, ws.id, init, String(sent.headers.etag));
    const done = await waitForAsset(admin.client, ws.id, init.asset_id);
    const res = await admin.client.request("GET", done.url, undefined, { headers: { range: "bytes=100-199" } });
    expect(res.statusCode).toBe(206);
    expect(res.headers["content-range"]).toBe("bytes 100-199/10000");
    expect(res.rawPayload.equals(data.subarray(100, 200))).toBe(true);
    expect(
      (await admin.client.request("GET", done.url, undefined, { headers: { range: "bytes=20000-" } })).statusCode,
    ).toBe(416);
    // Unknown types download as attachments, sandboxed.
    expect(String(res.headers["content-disposition"])).toMatch(/^attachment; filename="r.bin"/);
    expect(String(res.headers["content-security-policy"])).toMatch(/sandbox/);
  });
});

describe("folder upload", () => {
  it("builds the board tree from the paths, reuses same-name boards, and sanitises hostile segments", async () => {
    const { ws, admin } = await workspaceWith(env);
    const existing = (await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "Shoot" })).json();
    const img = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#ff0000" } })
      .jpeg()
      .toBuffer();
    const paths = [
      "Shoot/day1/a.jpg",
      "Shoot/day1/b.jpg",
      "Shoot/day2/c.jpg",
      "../../etc/passwd",
      "/abs/evil\u0000name.jpg",
      "win\\dows\\path.jpg",
      "ctrl\u0007/x.jpg",
    ];
    const form = multipartBody(
      paths.map((p, i) => [`file_paths[${i}]`, p] as [string, string]),
      paths.map((_p, i) => ({ field: "files", filename: `f${i}.jpg`, type: "image/jpeg", data: img })),
    );
    const res = await admin.client.request("POST", `/workspaces/${ws.id}/upload-folder`, undefined, form);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.assets.map((a: { path: string }) => a.path)).toEqual([
      "Shoot/day1/a.jpg",
      "Shoot/day1/b.jpg",
      "Shoot/day2/c.jpg",
      "etc/passwd",
      "abs/evilname.jpg",
      "win/dows/path.jpg",
      "ctrl/x.jpg",
    ]);
    const tree = (await admin.client.get(`/workspaces/${ws.id}/boards?recursive=true`)).json();
    const shoot = tree.find((b: { name: string }) => b.name === "Shoot");
    expect(shoot.id).toBe(existing.id);
    expect(shoot.children.map((b: { name: string }) => b.name)).toEqual(["day1", "day2"]);
    expect(tree.filter((b: { name: string }) => b.name === "Shoot")).toHaveLength(1);
    expect(body.boards_created).toBe(2 + 1 + 1 + 2 + 1);
    for (const a of body.assets) {
      const done = await waitForAsset(admin.client, ws.id, a.asset_id);
      expect(done.status).toBe("COMPLETED");
      expect(done.storage_key).toBeUndefined();
    }
    // Nothing landed outside the store's own keys.
    const top = new Set<string>();
    if (onS3) for await (const o of env.rt.store.list("")) top.add(o.key.split("/")[0] ?? "");
    else for (const n of await readdir(path.join(env.rt.config.dataDir, "blobs"))) top.add(n);
    expect([...top]).toEqual(expect.arrayContaining(["media"]));
    expect([...top].filter((n) => !["media", "uploads", ".tmp"].includes(n))).toEqual([]);
  });

  it("files into a parent board and refuses an empty request", async () => {
    const { ws, admin } = await workspaceWith(env);
    const parent = (await admin.client.post(`/workspaces/${ws.id}/boards`, { name: "Inbox" })).json();
    const form = multipartBody(
      [
        ["parent_board_id", parent.id],
        ["file_paths[0]", "x/y.txt"],
      ],
      [{ field: "files", filename: "y.txt", type: "text/plain", data: Buffer.from("hello") }],
    );
    const res = await admin.client.request("POST", `/workspaces/${ws.id}/upload-folder`, undefined, form);
    const sub = (await admin.client.get(`/workspaces/${ws.id}/boards?parent_id=${parent.id}`)).json();
    expect(sub.map((b: { name: string }) => b.name)).toEqual(["x"]);
    expect(res.json().assets[0].board_id).toBe(sub[0].id);
    const empty = multipartBody([["file_paths[0]", "a"]], []);
    expect(
      (await admin.client.request("POST", `/workspaces/${ws.id}/upload-folder`, undefined, empty)).statusCode,
    ).toBe(422);
  });
});

describe("abandoned uploads", () => {
  it("are removed with their bytes after 24 h; completed ones stay", async () => {
    const { ws, admin } = await workspaceWith(env);
    const data = opaqueBytes(12 * 1024 * 1024);
    const stale = await initUpload(admin.client, ws.id, { name: "stale.bin", size: data.length });
    await put(admin.client, stale.parts[0].url, data.subarray(0, 8 * 1024 * 1024));
    const fresh = await initUpload(admin.client, ws.id, { name: "fresh.bin", size: 10 });
    await env.rt.db
      .updateTable("uploads")
      .set({ created_at: new Date(Date.now() - 25 * 3600_000) })
      .where("id", "=", stale.upload_id)
      .execute();
    const removed = await env.rt.services.uploads.cleanupAbandoned();
    expect(removed).toBeGreaterThanOrEqual(1);
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${stale.asset_id}`)).statusCode).toBe(404);
    if (onS3) {
      // AbortMultipartUpload: the part's bytes are gone and its URL answers NoSuchUpload.
      expect((await put(admin.client, stale.parts[0].url, data.subarray(0, 8 * 1024 * 1024))).statusCode).toBe(404);
    } else {
      await expect(readdir(path.join(env.rt.config.dataDir, "blobs", "uploads", stale.upload_id))).rejects.toThrow();
    }
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${fresh.asset_id}`)).statusCode).toBe(200);
  });
});
