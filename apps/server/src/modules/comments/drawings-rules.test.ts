import { randomUUID } from "node:crypto";
import { DRAWING_LIMITS, type Review, type SharedPayload } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import {
  drawing,
  EVERY_KIND,
  images as imagesOf,
  LARGEST,
  longPen,
  post,
  rawAsset,
  refused,
} from "./drawings.fixture.ts";

/**
 * Drawings (issue 31), the rules: every way a drawing can be wrong (422 naming the field), and who
 * may draw: members of any role, visitors of a share link that allows commenting, outside reviewers.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
});
afterAll(() => env.close());
const asset = (ws: string, opts?: Parameters<typeof rawAsset>[2]) => rawAsset(env, ws, opts);
const images = (c: Client, ws: string, n: number) => imagesOf(env, c, ws, n);

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
