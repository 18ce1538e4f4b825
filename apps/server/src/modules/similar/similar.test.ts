import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type AssetListAnswer, SIMILAR_MESSAGES, type SimilarAnswer } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPatternVideo } from "../../../test/fixtures.ts";
import { createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { pictureJpeg, picturePng } from "../../../test/pictures.ts";
import { processedAsset } from "../../../test/versions.ts";
import { hashDistance, pictureHash } from "../../media/phash.ts";

/** Similar pictures (issue 32): the hash, the similar route, the listing's similar_to, who may ask. */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
});
afterAll(() => env.close());

const hashesOf = async (assetId: string) =>
  (
    await env.rt.db
      .selectFrom("asset_hashes")
      .innerJoin("assets", "assets.id", "asset_hashes.version_id")
      .select("asset_hashes.hash")
      .where("assets.id", "=", assetId)
      .execute()
  ).map((r) => BigInt(r.hash));

describe("the perceptual hash", () => {
  it("is stable for the same picture re-encoded and resized, and far for different pictures", async () => {
    const base = await pictureHash(await pictureJpeg(1, 92));
    expect(hashDistance(base, await pictureHash(await pictureJpeg(1, 35)))).toBeLessThanOrEqual(3);
    expect(hashDistance(base, await pictureHash(await pictureJpeg(1, 92, 180)))).toBeLessThanOrEqual(3);
    expect(hashDistance(base, await pictureHash(await picturePng(1, 1400)))).toBeLessThanOrEqual(3);
    for (const other of [2, 3, 4, 5])
      expect(hashDistance(base, await pictureHash(await pictureJpeg(other)))).toBeGreaterThan(16);
  });

  it("is stored with the version by the pipeline", async () => {
    const { ws, admin } = await workspaceWith(env);
    const a = await processedAsset(env, admin.client, ws.id, "one.jpg", await pictureJpeg(1));
    const b = await processedAsset(env, admin.client, ws.id, "one-small.jpg", await pictureJpeg(1, 40, 200));
    const [ha] = await hashesOf(a);
    const [hb] = await hashesOf(b);
    expect(ha).toBeTypeOf("bigint");
    expect(hashDistance(ha!, hb!)).toBeLessThanOrEqual(3);
  });
});

describe("hashes of every kind of picture, and the backfill", () => {
  it("hashes a video's poster and key frames, and the backfill hashes versions processed without hashes", async () => {
    const { ws, admin } = await workspaceWith(env);
    const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-similar-"));
    try {
      const file = path.join(dir, "clip.mp4");
      await testPatternVideo(file, "testsrc=size=320x240:rate=10:duration=6");
      const video = await processedAsset(env, admin.client, ws.id, "clip.mp4", await readFile(file));
      const frames = await hashesOf(video);
      expect(frames.length).toBeGreaterThan(2); // the poster and key frames of the sprite
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const a = await processedAsset(env, admin.client, ws.id, "old.jpg", await pictureJpeg(11));
    const before = await hashesOf(a);
    await env.rt.db.deleteFrom("asset_hashes").where("version_id", "=", a).execute();
    const job = env.rt.jobDefinitions.find((d) => d.name === "hash-assets");
    await job!.handle({}, { retryCount: 0 });
    expect(await hashesOf(a)).toEqual(before);
  });
});

describe("GET …/assets/{id}/similar and the listing's similar_to", () => {
  it("finds the resized and re-encoded copies nearest first, not an unrelated picture, and combines with other filters", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const c = admin.client;
    const original = await processedAsset(env, c, ws.id, "harbour.jpg", await pictureJpeg(7, 90));
    const resized = await processedAsset(env, c, ws.id, "harbour-big.png", await picturePng(7, 1300));
    const reencoded = await processedAsset(env, c, ws.id, "harbour-low.jpg", await pictureJpeg(7, 30, 400));
    const unrelated = await processedAsset(env, c, ws.id, "forest.jpg", await pictureJpeg(8, 90));

    const res = await c.get(`/workspaces/${ws.id}/assets/${original}/similar`);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as SimilarAnswer;
    const ids = answer.data.map((d) => d.asset.id);
    expect(ids.sort()).toEqual([resized, reencoded].sort());
    expect(ids).not.toContain(unrelated);
    expect(answer.data.map((d) => d.distance)).toEqual([...answer.data.map((d) => d.distance)].sort((x, y) => x - y));
    expect(answer.max_distance).toBe(8);
    // Nothing looks like the unrelated picture, even at the widest distance; a COMMENTER may ask.
    const wide = await c.get(`/workspaces/${ws.id}/assets/${unrelated}/similar?max_distance=11`);
    expect((wide.json() as SimilarAnswer).data).toEqual([]);
    const commenter = await members.COMMENTER!.client.get(`/workspaces/${ws.id}/assets/${original}/similar`);
    expect(commenter.statusCode).toBe(200);
    expect((commenter.json() as SimilarAnswer).data).toHaveLength(2);
    // A distance out of range is refused with the field.
    const far = await c.get(`/workspaces/${ws.id}/assets/${original}/similar?max_distance=64`);
    expect(far.statusCode).toBe(422);
    expect(far.json().detail).toBeTruthy();

    // The listing: similar_to alone, then with a file extension filter.
    const list = async (body: Record<string, unknown>) => {
      const r = await c.post(`/workspaces/${ws.id}/assets`, body);
      expect(r.statusCode, r.body).toBe(200);
      return (r.json() as AssetListAnswer).data.map((a) => a.id).sort();
    };
    expect(await list({ similar_to: { asset_id: original, max_distance: 8 } })).toEqual([resized, reencoded].sort());
    expect(await list({ similar_to: { asset_id: original }, file_extension: { includes: ["png"] } })).toEqual([
      resized,
    ]);
    expect(await list({ similar_to: { asset_id: unrelated, max_distance: 11 } })).toEqual([]);
    // Refused: an unknown asset, a distance out of range (422 naming the field).
    const unknown = await c.post(`/workspaces/${ws.id}/assets`, {
      similar_to: { asset_id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(unknown.statusCode).toBe(422);
    expect(JSON.stringify(unknown.json())).toContain("similar_to.asset_id");
    const out = await c.post(`/workspaces/${ws.id}/assets`, { similar_to: { asset_id: original, max_distance: 12 } });
    expect(out.statusCode).toBe(422);
  });

  it("answers nearest first, and the listing too with order_by distance (paged, counted), refused without similar_to", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    // Four different pictures whose hashes are then set 0, 3, 1 and 2 bits from the target's, so
    // neither the upload order nor the ids give the distance order.
    const target = await processedAsset(env, c, ws.id, "target.jpg", await pictureJpeg(51));
    const far = await processedAsset(env, c, ws.id, "three-bits.jpg", await pictureJpeg(52));
    const near = await processedAsset(env, c, ws.id, "one-bit.jpg", await pictureJpeg(53));
    const mid = await processedAsset(env, c, ws.id, "two-bits.jpg", await pictureJpeg(54));
    const base = 0x0123456789abcdefn;
    for (const [id, flip] of [
      [target, 0n],
      [far, 0b111n],
      [near, 0b1n],
      [mid, 0b11n],
    ] as const)
      await env.rt.db
        .updateTable("asset_hashes")
        .set({ hash: base ^ flip })
        .where("version_id", "=", id)
        .execute();

    const similar = (await c.get(`/workspaces/${ws.id}/assets/${target}/similar`)).json() as SimilarAnswer;
    expect(similar.data.map((d) => [d.asset.id, d.distance])).toEqual([
      [near, 1],
      [mid, 2],
      [far, 3],
    ]);
    const list = async (body: Record<string, unknown>) => {
      const r = await c.post(`/workspaces/${ws.id}/assets`, body);
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as AssetListAnswer;
    };
    const similarTo = { asset_id: target, max_distance: 8 };
    const nearest = await list({ similar_to: similarTo, order_by: "distance" });
    expect(nearest.data.map((a) => a.id)).toEqual([near, mid, far]);
    expect(nearest.pagination).toMatchObject({ total_count: 3, count_is_estimate: false, has_more: false });
    const second = await list({ similar_to: similarTo, order_by: "distance", page: 2, page_size: 2 });
    expect(second.data.map((a) => a.id)).toEqual([far]);
    expect(second.pagination).toMatchObject({ total_count: 3, has_more: false });
    expect((await list({ similar_to: similarTo, order_by: "distance", page_size: 2 })).pagination.has_more).toBe(true);
    // With another filter, and in another order when one is asked (the default: newest uploaded).
    const named = await list({ similar_to: similarTo, order_by: "distance", search: "bits" });
    expect(named.data.map((a) => a.id)).toEqual([mid, far]);
    expect((await list({ similar_to: similarTo })).data.map((a) => a.id)).toEqual([mid, near, far]);
    // Distance needs similar_to (422 naming the field).
    const refused = await c.post(`/workspaces/${ws.id}/assets`, { order_by: "distance" });
    expect(refused.statusCode).toBe(422);
    expect(JSON.stringify(refused.json())).toContain("order_by");
    expect(JSON.stringify(refused.json())).toContain(SIMILAR_MESSAGES.distanceOrder);
  });

  it("answers an outsider 404, an unknown asset 404, and a caller without a session nothing", async () => {
    const { ws, admin } = await workspaceWith(env);
    const a = await processedAsset(env, admin.client, ws.id, "p.jpg", await pictureJpeg(21));
    const outsider = (await workspaceWith(env)).admin.client;
    expect((await outsider.get(`/workspaces/${ws.id}/assets/${a}/similar`)).statusCode).toBe(404);
    expect((await outsider.post(`/workspaces/${ws.id}/assets`, { similar_to: { asset_id: a } })).statusCode).toBe(404);
    const none = await admin.client.get(`/workspaces/${ws.id}/assets/00000000-0000-4000-8000-000000000000/similar`);
    expect(none.statusCode).toBe(404);
    const anonymous = await env.app.inject({ method: "GET", url: `/api/v1/workspaces/${ws.id}/assets/${a}/similar` });
    expect(anonymous.statusCode).toBe(401);
  });
});
