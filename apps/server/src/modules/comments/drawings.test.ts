import { randomUUID } from "node:crypto";
import { CommentPage, DRAWING_LIMITS } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { drawing, EVERY_KIND, images as imagesOf, LARGEST, post, rawAsset, refused } from "./drawings.fixture.ts";

/**
 * Drawings on the work (issue 31): shapes on images, document pages and video frames, and video
 * ranges within the clip. Every way a drawing can be wrong and who may draw: drawings-rules.test.ts.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
});
afterAll(() => env.close());
const asset = (ws: string, opts?: Parameters<typeof rawAsset>[2]) => rawAsset(env, ws, opts);
const _images = (c: Client, ws: string, n: number) => imagesOf(env, c, ws, n);

describe("drawings on every kind of picture", () => {
  it("takes every shape kind on an image, a document page and a video frame; answers and lists them as drawn", async () => {
    const { ws, admin } = await workspaceWith(env);
    const img = await asset(ws.id);
    const doc = await asset(ws.id, { file_type: "DOCUMENT", page_count: 3 });
    const vid = await asset(ws.id, { file_type: "VIDEO", duration: 6 });
    const c = admin.client;

    const onImage = await post(c, ws.id, { object_id: img, ...drawing() });
    expect(onImage).toMatchObject({ annotation_type: "DRAWING", shapes: EVERY_KIND, page: null, timestamp: null });
    // Numbered where the drawing starts: its first shape's first point; a drawing has no box.
    expect(onImage).toMatchObject({ x: 5, y: 15, width: null, height: null });
    const onPage = await post(c, ws.id, { object_id: doc, ...drawing({ page: 2 }) });
    expect(onPage).toMatchObject({ shapes: EVERY_KIND, page: 2 });
    const onFrame = await post(c, ws.id, { object_id: vid, ...drawing({ timestamp: 2.5 }) });
    expect(onFrame).toMatchObject({ shapes: EVERY_KIND, timestamp: 2.5, duration: null });
    const onRange = await post(c, ws.id, { object_id: vid, ...drawing({ timestamp: 1, duration: 2.5 }) });
    expect(onRange).toMatchObject({ timestamp: 1, duration: 2.5 });

    // Points and areas on a video frame and over a range; points and areas unchanged elsewhere.
    const point = await post(c, ws.id, {
      object_id: vid,
      text: "p",
      annotation_type: "POINT",
      x: 1,
      y: 2,
      timestamp: 3,
    });
    expect(point).toMatchObject({ annotation_type: "POINT", x: 1, y: 2, timestamp: 3, shapes: null });
    const area = { annotation_type: "AREA", x: 10, y: 10, width: 20, height: 30 };
    expect(await post(c, ws.id, { object_id: vid, text: "a", ...area, timestamp: 0, duration: 6 })).toMatchObject({
      ...area,
      timestamp: 0,
      duration: 6,
      shapes: null,
    });
    expect(await post(c, ws.id, { object_id: doc, text: "a", ...area, page: 3 })).toMatchObject({ ...area, page: 3 });

    // Coordinates are kept to 1/100 of a percent.
    const fine = await post(c, ws.id, {
      object_id: img,
      ...drawing({
        shapes: [
          {
            kind: "line",
            points: [
              [0.123456, 99.999],
              [100, 0],
            ],
            color: "#FFFFFF",
            width: 3,
          },
        ],
      }),
    });
    expect(fine.shapes).toEqual([
      {
        kind: "line",
        points: [
          [0.12, 100],
          [100, 0],
        ],
        color: "#FFFFFF",
        width: 3,
      },
    ]);

    const list = async (q: string) => {
      const res = await c.get(`/workspaces/${ws.id}/comments?content_type=asset&${q}`);
      expect(res.statusCode).toBe(200);
      return CommentPage.parse(res.json()).results;
    };
    expect((await list(`object_id=${vid}`)).map((x) => x.shapes?.length ?? 0)).toEqual([5, 5, 0, 0]);
    expect((await list(`object_id=${doc}`))[0]!.shapes).toEqual(EVERY_KIND);
    const one = await c.get(`/workspaces/${ws.id}/comments/${onFrame.id}`);
    expect(one.json().shapes).toEqual(EVERY_KIND);
    // A reply draws too (on its thread's version) and lists under its thread.
    const reply = await post(c, ws.id, { object_id: img, parent_id: onImage.id, ...drawing() });
    expect((await list(`object_id=${img}&parent_id=${onImage.id}`)).map((x) => x.id)).toEqual([reply.id]);
    // Editing the text keeps the shapes.
    const edited = await c.put(`/workspaces/${ws.id}/comments/${onImage.id}`, { text: "Look closer" });
    expect(edited.json()).toMatchObject({ text: "Look closer", shapes: EVERY_KIND });
  });

  it("a drawing at every limit (50 shapes, 20,000 points in full precision) is taken and kept rounded", async () => {
    const { ws, admin } = await workspaceWith(env);
    const img = await asset(ws.id);
    expect(LARGEST).toHaveLength(DRAWING_LIMITS.shapes);
    expect(LARGEST.reduce((n, s) => n + s.points.length, 0)).toBe(DRAWING_LIMITS.totalPoints);
    const made = await post(admin.client, ws.id, { object_id: img, ...drawing({ shapes: LARGEST }) });
    expect(made.shapes).toHaveLength(50);
    expect(made.shapes![1]!.points).toHaveLength(DRAWING_LIMITS.penPoints);
    expect(made.shapes!.flatMap((s) => s.points.flat()).every((v) => Math.round(v * 100) / 100 === v)).toBe(true);
  });
});

describe("video ranges", () => {
  it("in ≤ out ≤ the length of the version commented on; an annotation on a video names its frame", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const vid = await asset(ws.id, { file_type: "VIDEO", duration: 6 });
    // An older version, 20 seconds long (its row as the assets module keeps it).
    const older = randomUUID();
    await env.rt.db
      .insertInto("asset_versions")
      .values({
        id: older,
        asset_id: vid,
        workspace_id: ws.id,
        number: 0,
        name: "long cut",
        file_type: "VIDEO",
        duration: 20,
      })
      .execute();
    const url = `/workspaces/${ws.id}/comments`;
    const body = (over: Record<string, unknown>) => ({ content_type: "asset", object_id: vid, text: "r", ...over });

    expect(await post(c, ws.id, body({ timestamp: 0, duration: 6 }))).toMatchObject({ timestamp: 0, duration: 6 });
    expect(await post(c, ws.id, body({ timestamp: 5.5, duration: 0.5 }))).toMatchObject({ duration: 0.5 });
    await refused(c, url, body({ timestamp: 5.5, duration: 0.6 }), "duration");
    await refused(c, url, body({ timestamp: 6.5 }), "timestamp");
    await refused(c, url, body({ timestamp: 2, duration: 0 }), "duration");
    await refused(c, url, body({ timestamp: 2, duration: -1 }), "duration");
    await refused(c, url, body({ timestamp: -0.1 }), "timestamp");
    await refused(c, url, body({ duration: 1 }), "duration");
    // Checked against the version commented on, not the current one.
    const long = await post(c, ws.id, body({ version_id: older, timestamp: 12, duration: 8, ...drawing() }));
    expect(long).toMatchObject({ version: { id: older, number: 0 }, timestamp: 12, duration: 8, shapes: EVERY_KIND });
    await refused(c, url, body({ version_id: older, timestamp: 12, duration: 8.5 }), "duration");
    await refused(c, url, body(drawing({ timestamp: 12 })), "timestamp");
    // Coordinates on a video are on a frame: an annotation without its time is refused.
    await refused(c, url, body(drawing()), "timestamp");
    await refused(c, url, body({ annotation_type: "POINT", x: 5, y: 5 }), "timestamp");
    // Only videos have times.
    const img = await asset(ws.id);
    await refused(c, url, { ...body(drawing({ timestamp: 1 })), object_id: img }, "timestamp");
  });
});
