import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Client,
  createTestEnv,
  putBytes,
  type TestEnv,
  waitForAsset,
  workspaceWith,
} from "../../../test/harness.ts";

// Workers off in one env: its assets stay `processing`, as when the pipeline has not reached them yet.
let env: TestEnv;
let idle: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0" });
  idle = await createTestEnv({ AI_TAGS: "0" }, { work: false });
});
afterAll(async () => {
  await env.close();
  await idle.close();
});

async function upload(c: Client, ws: string, name: string, type: string, data: Buffer): Promise<string> {
  const init = await c.post(`/workspaces/${ws}/assets/upload`, { name, size: data.length, content_type: type });
  expect(init.statusCode, init.body).toBe(200);
  expect((await putBytes(c.app, init.json().direct_url, data)).statusCode).toBeLessThan(300);
  return init.json().asset_id;
}

const original = (c: Client, ws: string, id: string) => c.get(`/media/${ws}/${id}/original`);

describe("originals not vetted by the pipeline download as attachments (issue 12)", () => {
  it("serves a refused image (error) as an attachment typed as bytes, a good one inline", async () => {
    const { ws, admin } = await workspaceWith(env);
    // A JPEG signature followed by garbage: sniffed as JPEG, refused by the decoder.
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 0x41)]);
    const bad = await upload(admin.client, ws.id, "broken.jpg", "image/jpeg", broken);
    expect((await waitForAsset(admin.client, ws.id, bad)).status).toBe("error");
    const res = await original(admin.client, ws.id, bad);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers["content-disposition"])).toMatch(/^attachment;/);
    expect(res.headers["content-type"]).toBe("application/octet-stream");
    expect(String(res.headers["content-security-policy"])).toMatch(/sandbox/);

    const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#000" } })
      .jpeg()
      .toBuffer();
    const good = await upload(admin.client, ws.id, "good.jpg", "image/jpeg", jpeg);
    expect((await waitForAsset(admin.client, ws.id, good)).status).toBe("COMPLETED");
    const ok = await original(admin.client, ws.id, good);
    expect(String(ok.headers["content-disposition"])).toMatch(/^inline;/);
    expect(ok.headers["content-type"]).toBe("image/jpeg");
  });

  it("serves an original still processing as an attachment, whatever type the uploader declared", async () => {
    const { ws, admin } = await workspaceWith(idle);
    const id = await upload(
      admin.client,
      ws.id,
      "page.png",
      "image/png",
      Buffer.from("<html><script>alert(1)</script>"),
    );
    expect((await admin.client.get(`/workspaces/${ws.id}/assets/${id}`)).json().status).toBe("processing");
    const res = await original(admin.client, ws.id, id);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers["content-disposition"])).toMatch(/^attachment;/);
    expect(res.headers["content-type"]).toBe("application/octet-stream");
  });
});
