import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { FileRequest, FileRequestPage } from "@hangar/contract";
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

/**
 * What a visitor sends through a request-files link, on the upload protocol members use: the
 * multipart path end to end (the direct one is in file-requests.test.ts), and the file cap when a
 * visitor's tabs start many uploads at once. Runs on disk and on S3 (vitest.s3.config.ts).
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" });
});
afterAll(() => env.close());

const onS3 = testStorage === "s3";
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const visitHeaders = (visit: string) => ({ "x-request-visit": visit });

async function request(body: Record<string, unknown> = {}) {
  const w = await workspaceWith(env);
  const board = (await w.admin.client.post(`/workspaces/${w.ws.id}/boards`, { name: "Inbox" })).json().id as string;
  const res = await w.admin.client.post(`/workspaces/${w.ws.id}/boards/${board}/file-requests`, body);
  expect(res.statusCode, res.body).toBe(201);
  return { ...w, board, link: res.json() as FileRequest };
}

describe("request-files uploads", () => {
  it("a 9 MB file goes up in parts through the link, is completed by the visitor, and lands whole in the board", async () => {
    const { ws, admin, board, link } = await request();
    const v = new Client(env.app);
    const visit = randomUUID();
    // Opaque bytes behind a fixed head, so the type is OTHER whatever the random bytes start with.
    const data = Buffer.concat([Buffer.from("hangar-request-data"), randomBytes(9 * 1024 * 1024 - 19)]);
    const init = await v.request(
      "POST",
      `/request/${link.token}/upload`,
      { name: "cut.bin", size: data.length, uploader_name: "Sam" },
      { headers: visitHeaders(visit) },
    );
    expect(init.statusCode, init.body).toBe(200);
    const answer = init.json() as {
      asset_id: string;
      upload_id: string;
      key: string;
      parts: Array<{ part_number: number; start_byte: number; end_byte: number; url: string }>;
    };
    expect(answer.parts.length).toBe(2);
    const parts: Array<{ part_number: number; etag: string }> = [];
    for (const p of answer.parts) {
      const put = await putBytes(
        env.app,
        p.url,
        data.subarray(p.start_byte, p.end_byte + 1),
        onS3 ? { origin: "http://hangar.test" } : {},
      );
      expect(put.statusCode, put.body).toBe(200);
      parts.push({ part_number: p.part_number, etag: put.headers.etag as string });
    }
    // Completing needs the visit that started it.
    const stranger = await v.request(
      "POST",
      `/request/${link.token}/upload/complete`,
      { upload_id: answer.upload_id, key: answer.key, parts },
      { headers: visitHeaders(randomUUID()) },
    );
    expect(stranger.statusCode).toBe(404);
    const done = await v.request(
      "POST",
      `/request/${link.token}/upload/complete`,
      { upload_id: answer.upload_id, key: answer.key, parts },
      { headers: visitHeaders(visit) },
    );
    expect(done.statusCode, done.body).toBe(200);
    // A bad body is refused with the field named.
    const bad = await v.request(
      "POST",
      `/request/${link.token}/upload/complete`,
      { upload_id: "nope", key: answer.key, parts },
      { headers: visitHeaders(visit) },
    );
    expect(bad.statusCode).toBe(422);

    const page = (
      await v.request("GET", `/request/${link.token}`, undefined, { headers: visitHeaders(visit) })
    ).json() as FileRequestPage;
    expect(page.uploads.map((u) => u.name)).toEqual(["cut.bin"]);
    expect((await waitForAsset(admin.client, ws.id, answer.asset_id)).status).toBe("COMPLETED");
    const listed = await admin.client.post(`/workspaces/${ws.id}/assets`, { board_id: board });
    expect(JSON.stringify(listed.json())).toContain(answer.asset_id);
    const asset = (await admin.client.get(`/workspaces/${ws.id}/assets/${answer.asset_id}`)).json();
    expect(asset.size).toBe(data.length);
    const original = await admin.client.get(asset.url);
    expect(sha(original.rawPayload)).toBe(sha(data));
  });

  it("takes at most max_files when 30 uploads start at once; the rest get 409 with the link's text", async () => {
    const { link } = await request({ max_files: 3 });
    const starts = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        new Client(env.app).request(
          "POST",
          `/request/${link.token}/upload`,
          { name: `f${i}.jpg`, size: 100 },
          { headers: visitHeaders(randomUUID()) },
        ),
      ),
    );
    const statuses = starts.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 409)).toHaveLength(27);
    expect(starts.find((r) => r.statusCode === 409)!.json().detail).toBe(
      "This upload link takes at most 3 files, and they have all been sent.",
    );
  });
});
