import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Client,
  createTestEnv,
  putBytes,
  requestUrl,
  signedInUser,
  type TestEnv,
  testStorage,
  uploadBytes,
  waitForAsset,
  workspaceWith,
} from "../../test/harness.ts";

/**
 * Every kind of URL we sign (the original in an asset answer, a direct or multipart download, a zip,
 * an upload part) names who it was issued to and is re-checked whenever it is fetched: it stops
 * working once that member is removed, once the asset goes to Recently deleted, and once the
 * workspace is deleted. Presigned S3 URLs cannot be re-checked by us (they live minutes instead).
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

const isOurs = (url: string) => !/^https?:\/\//.test(url);

async function issuedUrls() {
  const { ws, admin, members } = await workspaceWith(env, ["EDITOR"]);
  const editor = members.EDITOR!;
  const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: "#884422" } })
    .png()
    .toBuffer();
  const id = await uploadBytes(editor.client, ws.id, "a.png", png);
  const asset = await waitForAsset(editor.client, ws.id, id);
  const download = async (body: Record<string, unknown>) => {
    const res = await editor.client.post(`/workspaces/${ws.id}/download`, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const direct = (await download({ asset_ids: [id] })).direct_url as string;
  const part = (await download({ asset_ids: [id], use_multipart: true })).parts[0].url as string;
  const zip = (await download({ asset_ids: [id], board_ids: [] })).download_url as string;
  const init = (await editor.client.post(`/workspaces/${ws.id}/assets/upload`, { name: "b.bin", size: 10 })).json();
  const urls = { original: asset.url as string, direct, part, zip, upload: init.direct_url as string };
  return { ws, admin, editor, id, uploadAssetId: init.asset_id as string, urls };
}

async function fetchAll(urls: Record<string, string>) {
  const out: Record<string, number> = {};
  for (const [name, url] of Object.entries(urls)) {
    if (!isOurs(url)) continue; // a presigned S3 URL: short-lived, not ours to re-check
    out[name] =
      name === "upload"
        ? (await putBytes(env.app, url, Buffer.alloc(10))).statusCode
        : (await requestUrl(env.app, "GET", url)).statusCode;
  }
  return out;
}
function allRefused(got: Record<string, number>) {
  // On disk every one of the five is ours; on S3 the direct and part downloads and the upload are S3's.
  expect(Object.keys(got).length).toBe(testStorage === "disk" ? 5 : 2);
  expect(got).toEqual(Object.fromEntries(Object.keys(got).map((k) => [k, 404])));
}

describe("signed URLs are re-checked when fetched", () => {
  it("work for the member they were issued to, signed out, and not once forged", async () => {
    const { urls } = await issuedUrls();
    // The upload PUT is not tried here: it would complete the upload.
    const { upload: _u, ...gets } = urls;
    const got = await fetchAll(gets);
    expect(Object.values(got).every((s) => s === 200 || s === 206)).toBe(true);
    expect(urls.original).toMatch(/&by=u\.[0-9a-f-]{36}$/);
    expect((await requestUrl(env.app, "GET", urls.original.replace(/by=u\./, "by=l."))).statusCode).toBe(404);
  });

  it("are refused after the member they were issued to is removed", async () => {
    const { ws, admin, editor, urls } = await issuedUrls();
    const res = await admin.client.del(`/workspaces/${ws.id}/members/${editor.user.id}`);
    expect(res.statusCode).toBeLessThan(300);
    allRefused(await fetchAll(urls));
  });

  it("are refused after the asset goes to Recently deleted", async () => {
    const { ws, admin, id, uploadAssetId, urls } = await issuedUrls();
    const res = await admin.client.del(`/workspaces/${ws.id}/assets`, { asset_ids: [id, uploadAssetId] });
    expect(res.statusCode, res.body).toBe(200);
    allRefused(await fetchAll(urls));
  });

  it("are refused after the workspace is deleted", async () => {
    const { ws, admin, urls } = await issuedUrls();
    const res = await admin.client.del(`/workspaces/${ws.id}`);
    expect(res.statusCode).toBeLessThan(300);
    allRefused(await fetchAll(urls));
  });

  it("answer /media 404 to an outsider's session, through the access check", async () => {
    const { urls } = await issuedUrls();
    const outsider: Client = (await signedInUser(env)).client;
    const thumbnailLike = urls.original.split("?")[0]!;
    expect((await outsider.get(thumbnailLike)).statusCode).toBe(404);
  });
});
