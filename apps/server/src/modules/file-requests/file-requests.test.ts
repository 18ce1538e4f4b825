import { randomUUID } from "node:crypto";
import type { FileRequest, FileRequestPage } from "@hangar/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  createTestEnv,
  putBytes,
  type TestEnv,
  testStorage,
  waitForAsset,
  workspaceWith,
} from "../../../test/harness.ts";

const onS3 = testStorage === "s3";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

const jpeg = (r: number) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r, g: 90, b: 40 } } })
    .jpeg()
    .toBuffer();

async function setup() {
  const w = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
  const ws = w.ws.id;
  const board = (await w.admin.client.post(`/workspaces/${ws}/boards`, { name: "Inbox" })).json().id as string;
  return { ...w, ws, board, editor: w.members.EDITOR!.client, commenter: w.members.COMMENTER!.client };
}
const create = async (c: Client, ws: string, board: string, body: Record<string, unknown> = {}) => {
  const res = await c.post(`/workspaces/${ws}/boards/${board}/file-requests`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as FileRequest;
};
const headers = (visit: string | null, password?: string) => ({
  ...(visit ? { "x-request-visit": visit } : {}),
  ...(password ? { "x-share-password": password } : {}),
});
const page = (v: Client, token: string, visit: string | null, password?: string) =>
  v.request("GET", `/request/${token}`, undefined, { headers: headers(visit, password) });
const start = (v: Client, token: string, visit: string | null, name: string, size: number, password?: string) =>
  v.request("POST", `/request/${token}/upload`, { name, size }, { headers: headers(visit, password) });
/** A visitor sends one small file: init, then its one PUT (which finishes a direct upload on disk). */
async function send(v: Client, token: string, visit: string, name: string, data: Buffer, uploader?: string) {
  const init = await v.request(
    "POST",
    `/request/${token}/upload`,
    { name, size: data.length, uploader_name: uploader ?? null },
    { headers: headers(visit) },
  );
  expect(init.statusCode, init.body).toBe(200);
  const put = await putBytes(env.app, init.json().direct_url, data);
  expect(put.statusCode, put.body).toBe(200);
  // On disk the one PUT finishes a direct upload; S3 cannot tell us, so the visitor's page completes it.
  if (onS3) {
    const done = await v.request(
      "POST",
      `/request/${token}/upload/complete`,
      { upload_id: init.json().upload_id, key: init.json().key, parts: [{ part_number: 1, etag: put.headers.etag }] },
      { headers: headers(visit) },
    );
    expect(done.statusCode, done.body).toBe(200);
  }
  return init.json().asset_id as string;
}

describe("file requests: managing them", () => {
  it("ADMIN and EDITOR create, list, edit and delete; COMMENTER 403; an outsider 404", async () => {
    const { ws, board, editor, commenter, admin } = await setup();
    const r = await create(editor, ws, board, { title: "Send us the shoot", max_files: 3 });
    expect(r.token.length).toBeGreaterThanOrEqual(43);
    expect(r).toMatchObject({ path: `/r/${r.token}`, max_files: 3, files_received: 0, has_password: false });
    expect(r.max_file_bytes).toBeGreaterThan(0);
    const list = await editor.get(`/workspaces/${ws}/boards/${board}/file-requests`);
    expect(list.json().map((x: FileRequest) => x.id)).toEqual([r.id]);

    const patched = await editor.patch(`/workspaces/${ws}/file-requests/${r.id}`, {
      password: "hunter22",
      max_files: 5,
    });
    expect(patched.json()).toMatchObject({ has_password: true, max_files: 5 });
    expect(JSON.stringify(patched.json())).not.toContain("hunter22");

    for (const res of [
      await commenter.get(`/workspaces/${ws}/boards/${board}/file-requests`),
      await commenter.post(`/workspaces/${ws}/boards/${board}/file-requests`, {}),
      await commenter.patch(`/workspaces/${ws}/file-requests/${r.id}`, { is_active: false }),
      await commenter.del(`/workspaces/${ws}/file-requests/${r.id}`),
    ])
      expect(res.statusCode).toBe(403);
    const outsider = (await workspaceWith(env)).admin.client;
    for (const res of [
      await outsider.get(`/workspaces/${ws}/boards/${board}/file-requests`),
      await outsider.post(`/workspaces/${ws}/boards/${board}/file-requests`, {}),
      await outsider.patch(`/workspaces/${ws}/file-requests/${r.id}`, { is_active: false }),
      await outsider.del(`/workspaces/${ws}/file-requests/${r.id}`),
    ])
      expect(res.statusCode).toBe(404);

    // Every link of the workspace, for the ADMIN's review (Settings → Share links).
    const all = await admin.client.get(`/workspaces/${ws}/file-requests`);
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual([
      expect.objectContaining({ id: r.id, board_name: "Inbox", created_by_name: "EDITOR User" }),
    ]);
    expect((await editor.get(`/workspaces/${ws}/file-requests`)).statusCode).toBe(403);
    expect((await outsider.get(`/workspaces/${ws}/file-requests`)).statusCode).toBe(404);

    const tooBig = await editor.post(`/workspaces/${ws}/boards/${board}/file-requests`, { max_file_bytes: 2 ** 50 });
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json().detail).toMatch(/^Files can be at most/);
    expect((await editor.del(`/workspaces/${ws}/file-requests/${r.id}`)).statusCode).toBe(200);
    expect((await page(new Client(env.app), r.token, null)).statusCode).toBe(404);
  });
});

describe("file requests: the visitor's side", () => {
  it("a visitor uploads into the board and sees only their own visit's files", async () => {
    const { ws, board, admin, editor } = await setup();
    const r = await create(editor, ws, board, { title: "Photos please", message: "Max 3 files" });
    const v = new Client(env.app);
    const first = await page(v, r.token, null);
    expect(first.statusCode).toBe(200);
    expect(first.headers["x-robots-tag"]).toBe("noindex");
    expect(first.json()).toMatchObject({ title: "Photos please", board_name: "Inbox", files_left: 50, uploads: [] });

    const visit = randomUUID();
    const assetId = await send(v, r.token, visit, "holiday.jpg", await jpeg(200), "  Robin  ");
    expect((await waitForAsset(admin.client, ws, assetId)).status).toBe("COMPLETED");
    const mine = (await page(v, r.token, visit)).json() as FileRequestPage;
    expect(mine.uploads.map((u) => u.name)).toEqual(["holiday.jpg"]);
    expect(mine.files_left).toBe(49);
    // Another visit (another tab, another person) lists nothing of it.
    expect(((await page(new Client(env.app), r.token, randomUUID())).json() as FileRequestPage).uploads).toEqual([]);
    // Members find it in the board; the request counts it.
    const inBoard = await admin.client.post(`/workspaces/${ws}/assets`, { board_id: board });
    expect(JSON.stringify(inBoard.json())).toContain(assetId);
    const listed = (await editor.get(`/workspaces/${ws}/boards/${board}/file-requests`)).json() as FileRequest[];
    expect(listed[0]).toMatchObject({ files_received: 1 });
    expect(listed[0]!.last_upload_at).not.toBeNull();
    // Members see what came in, with the name the visitor gave (trimmed); an outsider gets 404.
    const files = await editor.get(`/workspaces/${ws}/file-requests/${r.id}/files`);
    expect(files.json()).toEqual([
      expect.objectContaining({ asset_id: assetId, name: "holiday.jpg", uploader_name: "Robin" }),
    ]);
    const stranger = (await workspaceWith(env)).admin.client;
    expect((await stranger.get(`/workspaces/${ws}/file-requests/${r.id}/files`)).statusCode).toBe(404);
    // The token opens nothing else: not as a share link.
    expect((await v.get(`/share/${r.token}`)).statusCode).toBe(404);
  });

  it("caps: a file count and a size per file; a visit id is required; another visit cannot complete it", async () => {
    const { ws, board, editor } = await setup();
    const r = await create(editor, ws, board, { max_files: 2, max_file_bytes: 10_000 });
    const v = new Client(env.app);
    const visit = randomUUID();
    const big = await start(v, r.token, visit, "huge.mov", 10_001);
    expect(big.statusCode).toBe(413);
    // 10 000 bytes as spec 02 §9 shows sizes (1024 units, 2 decimals).
    expect(big.json().detail).toBe("Files sent through this link can be at most 9.77 KB.");
    const noVisit = await start(v, r.token, null, "a.jpg", 100);
    expect(noVisit.statusCode).toBe(422);
    const a = await start(v, r.token, visit, "a.jpg", 100);
    const b = await start(v, r.token, visit, "b.jpg", 100);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const c = await start(v, r.token, visit, "c.jpg", 100);
    expect(c.statusCode).toBe(409);
    expect(c.json().detail).toBe("This upload link takes at most 2 files, and they have all been sent.");
    const other = await v.request(
      "POST",
      `/request/${r.token}/upload/complete`,
      { upload_id: a.json().upload_id, key: a.json().key, parts: [] },
      { headers: headers(randomUUID()) },
    );
    expect(other.statusCode).toBe(404);
  });

  it("password: 401 before, then the cookie; a new password ends it; disabling stops the page and the part URLs", async () => {
    const { ws, board, editor } = await setup();
    const r = await create(editor, ws, board, { password: "open sesame" });
    const v = new Client(env.app);
    const visit = randomUUID();
    expect((await page(v, r.token, visit)).statusCode).toBe(401);
    const wrong = await page(v, r.token, visit, "nope");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().detail).toBe("Incorrect password");
    expect((await page(v, r.token, visit, "open sesame")).statusCode).toBe(200);
    expect((await page(v, r.token, visit)).statusCode).toBe(200); // the unlock cookie
    const init = await start(v, r.token, visit, "late.jpg", 500);
    expect(init.statusCode).toBe(200);

    await editor.patch(`/workspaces/${ws}/file-requests/${r.id}`, { password: "new one" });
    expect((await page(v, r.token, visit)).statusCode).toBe(401);
    await editor.patch(`/workspaces/${ws}/file-requests/${r.id}`, { password: null, is_active: false });
    const off = await page(v, r.token, visit);
    expect(off.statusCode).toBe(403);
    expect(off.json().detail).toBe("Link has expired or is no longer valid");
    expect((await start(v, r.token, visit, "more.jpg", 10)).statusCode).toBe(403);
    // A URL handed out before the request closed takes no bytes (ours); S3 cannot take back a presigned
    // URL, so there the bytes may land but the closed request completes nothing.
    const put = await putBytes(env.app, init.json().direct_url, Buffer.alloc(500));
    if (!onS3) expect(put.statusCode).toBe(403);
    else {
      const done = await v.request(
        "POST",
        `/request/${r.token}/upload/complete`,
        { upload_id: init.json().upload_id, key: init.json().key, parts: [{ part_number: 1, etag: put.headers.etag }] },
        { headers: headers(visit) },
      );
      expect(done.statusCode).toBe(403);
    }

    await editor.patch(`/workspaces/${ws}/file-requests/${r.id}`, {
      is_active: true,
      expires_at: new Date(Date.now() - 1000).toISOString(),
    });
    expect((await page(v, r.token, visit)).statusCode).toBe(403);
  });

  it("a deleted workspace's request page answers 404 with no names, as its share links do (and again once restored)", async () => {
    const { ws, admin, board, editor } = await setup();
    const r = await create(editor, ws, board, { title: "Send the shoot", message: "Thanks!" });
    const v = new Client(env.app);
    const visit = randomUUID();
    expect((await page(v, r.token, visit)).statusCode).toBe(200);
    expect((await admin.client.del(`/workspaces/${ws}`)).statusCode).toBe(200);
    const gone = await page(v, r.token, visit);
    expect(gone.statusCode).toBe(404);
    expect(gone.body).not.toContain("Send the shoot");
    expect(gone.body).not.toContain("Inbox");
    expect((await start(v, r.token, visit, "late.jpg", 10)).statusCode).toBe(404);
    expect((await admin.client.post(`/workspaces/${ws}/restore`)).statusCode).toBe(200);
    expect((await page(v, r.token, visit)).json()).toMatchObject({ title: "Send the shoot", board_name: "Inbox" });
  });
});
