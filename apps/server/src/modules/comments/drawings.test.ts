import { randomUUID } from "node:crypto";
import {
  type Comment,
  CommentPage,
  DRAWING_LIMITS,
  type DrawingShape,
  type Review,
  type SharedPayload,
} from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { png, processedAsset } from "../../../test/versions.ts";

/**
 * Drawings on the work (issue 31): shapes on images, document pages and video frames, video ranges
 * within the clip, every way a drawing can be wrong (422 naming the field), and who may draw:
 * members of any role, visitors of a share link that allows commenting, outside reviewers.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
});
afterAll(() => env.close());

/** An asset row made directly (its first version comes with it): the pipeline is not what these tests are about. */
async function asset(
  ws: string,
  opts: { page_count?: number; file_type?: "IMAGE" | "VIDEO" | "DOCUMENT"; duration?: number } = {},
) {
  const a = await env.rt.db
    .insertInto("assets")
    .values({
      workspace_id: ws,
      name: `asset-${randomUUID().slice(0, 5)}`,
      status: "COMPLETED",
      is_temp: false,
      file_type: opts.file_type ?? "IMAGE",
      page_count: opts.page_count ?? null,
      duration: opts.duration ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return a.id;
}

/** Processed images (the pipeline runs here: this env has no workers), each of its own colour. */
async function images(c: Client, ws: string, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push(await processedAsset(env, c, ws, `image-${i}.png`, await png(`rgb(${40 + i * 60}, 120, 60)`)));
  return ids;
}

/** One shape of each kind, apart from each other. */
const EVERY_KIND: DrawingShape[] = [
  {
    kind: "pen",
    points: [
      [5, 15],
      [15, 18.5],
      [25, 15],
      [35, 12.25],
    ],
    color: "#E03131",
    width: 8,
  },
  {
    kind: "line",
    points: [
      [50, 15],
      [90, 15],
    ],
    color: "#2F9E44",
    width: 1,
  },
  {
    kind: "arrow",
    points: [
      [10, 40],
      [40, 40],
    ],
    color: "#1C7ED6",
    width: 4,
  },
  {
    kind: "rect",
    points: [
      [90, 65],
      [50, 35],
    ],
    color: "#F76707",
    width: 2,
  },
  {
    kind: "ellipse",
    points: [
      [10, 55],
      [40, 95],
    ],
    color: "#AE3EC9",
    width: 8,
  },
];
const drawing = (over: Record<string, unknown> = {}) => ({
  text: "Look here",
  annotation_type: "DRAWING",
  shapes: EVERY_KIND,
  ...over,
});

async function post(c: Client, ws: string, body: Record<string, unknown>) {
  const res = await c.post(`/workspaces/${ws}/comments`, { content_type: "asset", ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Comment;
}
/** The request answers 422 naming exactly `field` among its errors. */
async function refused(c: Client, url: string, body: Record<string, unknown> | string, field: string) {
  const res =
    typeof body === "string"
      ? await c.request("POST", url, undefined, { payload: body, headers: { "content-type": "application/json" } })
      : await c.post(url, body);
  expect(res.statusCode, `${field}: ${res.body}`).toBe(422);
  expect(res.json().code).toBe("VALIDATION_FAILED");
  expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
}

/** A pen stroke of `n` points with coordinates written out in full precision (as a careless client would). */
const longPen = (n: number, seed = 0): DrawingShape => ({
  kind: "pen",
  points: Array.from({ length: n }, (_, i) => [
    ((i * 7.123456789012345 + seed) % 100) + 0.0000000001,
    ((i * 3.987654321098765 + seed) % 100) + 0.0000000001,
  ]),
  color: "#000000",
  width: 2,
});
/** A drawing at every limit: 50 shapes (10 pens, 40 arrows), 20,000 points (the first pen 80 short). */
const LARGEST: DrawingShape[] = [
  longPen(DRAWING_LIMITS.penPoints - 80),
  ...Array.from({ length: 9 }, (_, i) => longPen(DRAWING_LIMITS.penPoints, i + 1)),
  ...Array.from({ length: 40 }, () => EVERY_KIND[2]!),
];

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

describe("validation", () => {
  it("refuses every malformed drawing with 422 naming the field", async () => {
    const { ws, admin } = await workspaceWith(env);
    const img = await asset(ws.id);
    const doc = await asset(ws.id, { file_type: "DOCUMENT", page_count: 2 });
    const url = `/workspaces/${ws.id}/comments`;
    const bad = (over: Record<string, unknown>, field: string) =>
      refused(admin.client, url, { content_type: "asset", object_id: img, ...drawing(over) }, field);
    const shape = (s: Record<string, unknown>) => ({ shapes: [{ ...EVERY_KIND[1], ...s }] });

    await bad({ shapes: undefined }, "shapes");
    await bad({ shapes: null }, "shapes");
    await bad({ shapes: [] }, "shapes");
    await bad({ shapes: Array.from({ length: 51 }, () => EVERY_KIND[1]) }, "shapes");
    await bad({ shapes: Array.from({ length: 11 }, (_, i) => longPen(DRAWING_LIMITS.penPoints, i)) }, "shapes");
    await bad({ annotation_type: "POINT", x: 1, y: 1 }, "shapes");
    await bad({ annotation_type: "NONE" }, "shapes");
    await bad({ x: 5, y: 5 }, "x");
    await bad({ width: 5, height: 5 }, "width");
    await bad(shape({ kind: "star" }), "shapes.0.kind");
    await bad(shape({ kind: undefined }), "shapes.0.kind");
    await bad(shape({ color: "#123456" }), "shapes.0.color");
    await bad(shape({ color: "red" }), "shapes.0.color");
    await bad(shape({ width: 0 }), "shapes.0.width");
    await bad(shape({ width: 9 }), "shapes.0.width");
    await bad(shape({ width: 2.5 }), "shapes.0.width");
    await bad(shape({ points: "0,0 1,1" }), "shapes.0.points");
    await bad(
      shape({
        points: [
          [1, 1],
          [2, 2],
          [3, 3],
        ],
      }),
      "shapes.0.points",
    );
    await bad(shape({ kind: "arrow", points: [[1, 1]] }), "shapes.0.points");
    await bad(
      shape({
        kind: "arrow",
        points: [
          [4, 4],
          [4, 4],
        ],
      }),
      "shapes.0.points",
    );
    await bad(
      shape({
        kind: "rect",
        points: [
          [1, 1],
          [9, 1],
        ],
      }),
      "shapes.0.points",
    );
    await bad(
      shape({
        kind: "ellipse",
        points: [
          [1, 1],
          [1, 9],
        ],
      }),
      "shapes.0.points",
    );
    await bad(shape({ kind: "ellipse", points: [] }), "shapes.0.points");
    await bad(shape({ kind: "pen", points: [] }), "shapes.0.points");
    await bad({ shapes: [longPen(DRAWING_LIMITS.penPoints + 1)] }, "shapes.0.points");
    // A shape may not leave the picture; coordinates are finite numbers.
    await bad(
      shape({
        points: [
          [1, 1],
          [100.01, 2],
        ],
      }),
      "shapes.0.points.1.0",
    );
    await bad(
      shape({
        points: [
          [1, -0.5],
          [2, 2],
        ],
      }),
      "shapes.0.points.0.1",
    );
    await bad(
      shape({
        points: [
          [1, "2"],
          [2, 2],
        ],
      }),
      "shapes.0.points.0.1",
    );
    await bad(
      shape({
        points: [
          [1, null],
          [2, 2],
        ],
      }),
      "shapes.0.points.0.1",
    );
    await bad(
      shape({
        points: [
          [1, 1, 1],
          [2, 2],
        ],
      }),
      "shapes.0.points.0",
    );
    await bad(shape({ points: [[1], [2, 2]] }), "shapes.0.points.0");
    // JSON has no Infinity, but 1e999 parses as one.
    const infinite = JSON.stringify({ content_type: "asset", object_id: img, ...drawing(shape({})) }).replace(
      "[[50,15]",
      "[[1e999,15]",
    );
    expect(infinite).toContain("1e999");
    await refused(admin.client, url, infinite, "shapes.0.points.0.0");
    // The picture decides the rest: pages of a document, times of a video.
    await refused(admin.client, url, { content_type: "asset", object_id: doc, ...drawing({ page: 3 }) }, "page");
    await bad({ page: 1 }, "page");
  });
});

// Visitors need processed images (the pipeline runs in the test): more than the default on a busy machine.
describe("who may draw", { timeout: 120_000 }, () => {
  it("any role draws; nobody edits another's drawing; outsiders get 404", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["COMMENTER"]);
    const img = await asset(ws.id);
    const commenter = members.COMMENTER!.client;
    const mine = await post(commenter, ws.id, { object_id: img, ...drawing() });
    expect(mine.abilities).toMatchObject({ edit: true });
    const theirs = await post(admin.client, ws.id, { object_id: img, ...drawing() });
    const edit = await commenter.put(`/workspaces/${ws.id}/comments/${theirs.id}`, { text: "mine now" });
    expect(edit.statusCode).toBe(403);
    const outsider = (await workspaceWith(env)).admin.client;
    const tried = await outsider.post(`/workspaces/${ws.id}/comments`, {
      content_type: "asset",
      object_id: img,
      ...drawing(),
    });
    expect(tried.statusCode).toBe(404);
    expect((await outsider.get(`/workspaces/${ws.id}/comments/${theirs.id}`)).statusCode).toBe(404);
    // An outsider's own workspace does not reach this asset either.
    const stranger = await workspaceWith(env);
    const elsewhere = await stranger.admin.client.post(`/workspaces/${stranger.ws.id}/comments`, {
      content_type: "asset",
      object_id: img,
      ...drawing(),
    });
    expect(elsewhere.statusCode).toBe(404);
  });

  it("share visitors draw when the link allows commenting, and not otherwise", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const [img] = await images(c, ws.id, 1);
    const board = (await c.post(`/workspaces/${ws.id}/boards`, { name: "Shared" })).json().id as string;
    expect((await c.post(`/workspaces/${ws.id}/boards/${board}/assets`, { asset_ids: [img] })).statusCode).toBe(200);
    const shared = await c.get(`/workspaces/${ws.id}/share/asset/${img}?board_id=${board}`);
    expect(shared.statusCode, shared.body).toBe(200);
    const link = shared.json();
    const set = async (flags: Record<string, unknown>) =>
      expect((await c.put(`/workspaces/${ws.id}/share/asset/${img}`, { board_id: board, ...flags })).statusCode).toBe(
        200,
      );
    const v = new Client(env.app);
    const url = `/share/${link.token}/comments`;

    const made = await v.post(url, { ...drawing(), author_name: "Dana" });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ author_display: "Dana", annotation_type: "DRAWING", shapes: EVERY_KIND });
    // The largest drawing fits a visitor's request too (public routes otherwise take 16 KB).
    const largest = await v.post(url, drawing({ shapes: LARGEST }));
    expect(largest.statusCode, largest.body.slice(0, 200)).toBe(201);
    await refused(v, url, drawing({ shapes: [{ ...EVERY_KIND[0], color: "#ABCDEF" }] }), "shapes.0.color");
    // Wherever comments show: the shared page, the visitor's list, the members' list.
    const payload = (await v.get(`/share/${link.token}`)).json() as SharedPayload;
    expect(payload.comments?.[0]?.shapes).toEqual(EVERY_KIND);
    expect((await v.get(url)).json().results[0].shapes).toEqual(EVERY_KIND);
    const seen = await c.get(`/workspaces/${ws.id}/comments?content_type=asset&object_id=${img}`);
    expect(seen.json().results[0].shapes).toEqual(EVERY_KIND);

    await set({ allow_commenting: false });
    expect((await v.post(url, drawing())).statusCode).toBe(403);
    await set({ allow_commenting: true, show_comments: false });
    expect((await v.post(url, drawing())).statusCode).toBe(403);
    await set({ show_comments: true });
    expect((await v.post(url, drawing())).statusCode).toBe(201);
  });

  it("outside reviewers draw on the review's assets through their link, not on others, not once it is disabled", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const [a, other] = await images(c, ws.id, 2);
    const guest = `guest-${randomUUID().slice(0, 8)}@example.test`;
    const created = await c.post(`/workspaces/${ws.id}/reviews`, {
      title: "Drawn",
      asset_ids: [a!],
      stages: [{ reviewers: [{ email: guest, name: "Gus" }] }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const review = created.json() as Review;
    const who = review.stages.flatMap((s) => s.reviewers).find((r) => r.email === guest);
    const link = { id: who!.id, token: who!.link!.token };
    const v = new Client(env.app);
    const url = `/review/${link.token}/comments`;
    const made = await v.post(url, { object_id: a, ...drawing() });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ author_display: "Gus", shapes: EVERY_KIND });
    expect((await v.post(url, { object_id: a, ...drawing({ shapes: LARGEST }) })).statusCode).toBe(201);
    await refused(v, url, { object_id: a, ...drawing({ shapes: [] }) }, "shapes");
    expect((await v.post(url, { object_id: other, ...drawing() })).statusCode).toBe(404);
    await c.patch(`/workspaces/${ws.id}/reviews/${review.id}/reviewers/${link.id}`, { is_active: false });
    expect((await v.post(url, { object_id: a, ...drawing() })).statusCode).toBe(403);
  });
});
