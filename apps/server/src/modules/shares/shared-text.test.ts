import type { RecognisedText, ShareLink } from "@hangar/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  createTestEnv,
  type TestEnv,
  uploadBytes,
  waitForAsset,
  workspaceWith,
} from "../../../test/harness.ts";

/**
 * Issue 35: a visitor's Details tab shows the text read in a shared asset through the link's own
 * call (`GET /share/{token}/assets/{id}/recognised-text`), through the gate and the access layer:
 * what the link does not share answers 404, as for an outsider; a locked or disabled link refuses.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

const textImage = (line: string) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="330"><rect width="100%" height="100%" fill="#fdfdf8"/>` +
        `<text x="70" y="170" font-family="DejaVu Sans, sans-serif" font-size="90" fill="#1a1a1a">${line}</text></svg>`,
    ),
  )
    .png()
    .toBuffer();

const share = async (c: Client, ws: string, path: string, body?: Record<string, unknown>) => {
  const res = body
    ? await c.put(`/workspaces/${ws}/share/${path}`, body)
    : await c.get(`/workspaces/${ws}/share/${path}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ShareLink;
};
const textUrl = (token: string, assetId: string) => `/share/${token}/assets/${assetId}/recognised-text`;

/** Reads through `url` until OCR is over (the read-text job runs after processing). */
async function settledText(c: Client, url: string): Promise<RecognisedText> {
  const until = Date.now() + 120_000;
  for (;;) {
    const res = await c.get(url);
    expect(res.statusCode, res.body).toBe(200);
    const text = res.json() as RecognisedText;
    if (text.status !== "pending") return text;
    if (Date.now() > until) throw new Error("text still pending");
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("the text read in a shared asset, for visitors", () => {
  it("a visitor reads it through the link; outside the link, another link's asset or an outsider: 404", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const c = admin.client;
    const board = (await c.post(`/workspaces/${ws.id}/boards`, { name: "Invoices" })).json().id as string;
    const other = (await c.post(`/workspaces/${ws.id}/boards`, { name: "Private" })).json().id as string;
    const shown = await uploadBytes(c, ws.id, "invoice.png", await textImage("HANGAR INVOICE 2026"), board);
    const hidden = await uploadBytes(c, ws.id, "secret.png", await textImage("SECRET"), other);
    for (const id of [shown, hidden]) expect((await waitForAsset(c, ws.id, id, 120_000)).status).toBe("COMPLETED");

    const link = await share(c, ws.id, `board/${board}`, { show_comments: false, show_custom_fields: false });
    const visitor = new Client(env.app);
    const read = await settledText(visitor, textUrl(link.token, shown));
    expect(read.status).toBe("done");
    expect(read.text.toLowerCase()).toContain("invoice");
    // The same answer members get.
    expect(read).toEqual(await settledText(c, `/workspaces/${ws.id}/assets/${shown}/recognised-text`));
    expect(
      await settledText(members.COMMENTER!.client, `/workspaces/${ws.id}/assets/${shown}/recognised-text`),
    ).toEqual(read);

    // An asset the link does not share, however the visitor learnt its id: 404, as an unknown one.
    const outside = await visitor.get(textUrl(link.token, hidden));
    expect(outside.statusCode).toBe(404);
    const unknown = await visitor.get(textUrl(link.token, "00000000-0000-4000-8000-000000000000"));
    expect(unknown.statusCode).toBe(404);
    expect(outside.json()).toEqual(unknown.json());
    // Another link (the hidden asset's own) does not open the first link's asset, and vice versa.
    const hiddenLink = await share(c, ws.id, `asset/${hidden}?board_id=${other}`);
    expect((await visitor.get(textUrl(hiddenLink.token, shown))).statusCode).toBe(404);
    expect((await settledText(visitor, textUrl(hiddenLink.token, hidden))).status).not.toBe("pending");
    // A link of another workspace neither.
    const stranger = await workspaceWith(env);
    const sb = (await stranger.admin.client.post(`/workspaces/${stranger.ws.id}/boards`, { name: "Theirs" })).json()
      .id as string;
    const strangerLink = await share(stranger.admin.client, stranger.ws.id, `board/${sb}`);
    expect((await visitor.get(textUrl(strangerLink.token, shown))).statusCode).toBe(404);
    // An outsider through the members' route: 404; no one signed in: refused.
    const theirs = await stranger.admin.client.get(`/workspaces/${ws.id}/assets/${shown}/recognised-text`);
    expect(theirs.statusCode).toBe(404);
    expect((await new Client(env.app).get(`/workspaces/${ws.id}/assets/${shown}/recognised-text`)).statusCode).toBe(
      401,
    );
    // An unknown token: 404; a malformed id: 422 naming the field.
    expect((await visitor.get(textUrl("x".repeat(43), shown))).statusCode).toBe(404);
    const bad = await visitor.get(textUrl(link.token, "not-an-id"));
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toBeTruthy();
  }, 240_000);

  it("a locked link asks for its password first; a disabled one refuses", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const board = (await c.post(`/workspaces/${ws.id}/boards`, { name: "Locked" })).json().id as string;
    const id = await uploadBytes(c, ws.id, "plain.png", await textImage("LOCKED"), board);
    expect((await waitForAsset(c, ws.id, id, 120_000)).status).toBe("COMPLETED");
    const link = await share(c, ws.id, `board/${board}`, { password: "a-link-password" });
    const visitor = new Client(env.app);
    expect((await visitor.get(textUrl(link.token, id))).statusCode).toBe(401);
    const open = await visitor.request("GET", textUrl(link.token, id), undefined, {
      headers: { "x-share-password": "a-link-password" },
    });
    expect(open.statusCode, open.body).toBe(200);
    await share(c, ws.id, `board/${board}`, { is_active: false });
    expect((await new Client(env.app).get(textUrl(link.token, id))).statusCode).toBe(403);
  }, 240_000);
});
