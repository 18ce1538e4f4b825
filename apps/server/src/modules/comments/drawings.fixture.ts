import { randomUUID } from "node:crypto";
import { type Comment, DRAWING_LIMITS, type DrawingShape } from "@hangar/contract";
import { expect } from "vitest";
import type { Client, TestEnv } from "../../../test/harness.ts";
import { png, processedAsset } from "../../../test/versions.ts";

/** What the drawings suites share (issue 31): assets made directly, one shape of each kind, the requests. */

/** An asset row made directly (its first version comes with it): the pipeline is not what these tests are about. */
export async function rawAsset(
  env: TestEnv,
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
export async function images(env: TestEnv, c: Client, ws: string, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push(await processedAsset(env, c, ws, `image-${i}.png`, await png(`rgb(${40 + i * 60}, 120, 60)`)));
  return ids;
}

/** One shape of each kind, apart from each other. */
export const EVERY_KIND: DrawingShape[] = [
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
export const drawing = (over: Record<string, unknown> = {}) => ({
  text: "Look here",
  annotation_type: "DRAWING",
  shapes: EVERY_KIND,
  ...over,
});

export async function post(c: Client, ws: string, body: Record<string, unknown>) {
  const res = await c.post(`/workspaces/${ws}/comments`, { content_type: "asset", ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Comment;
}
/** The request answers 422 naming exactly `field` among its errors. */
export async function refused(c: Client, url: string, body: Record<string, unknown> | string, field: string) {
  const res =
    typeof body === "string"
      ? await c.request("POST", url, undefined, { payload: body, headers: { "content-type": "application/json" } })
      : await c.post(url, body);
  expect(res.statusCode, `${field}: ${res.body}`).toBe(422);
  expect(res.json().code).toBe("VALIDATION_FAILED");
  expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
}

/** A pen stroke of `n` points with coordinates written out in full precision (as a careless client would). */
export const longPen = (n: number, seed = 0): DrawingShape => ({
  kind: "pen",
  points: Array.from({ length: n }, (_, i) => [
    ((i * 7.123456789012345 + seed) % 100) + 0.0000000001,
    ((i * 3.987654321098765 + seed) % 100) + 0.0000000001,
  ]),
  color: "#000000",
  width: 2,
});
/** A drawing at every limit: 50 shapes (10 pens, 40 arrows), 20,000 points (the first pen 80 short). */
export const LARGEST: DrawingShape[] = [
  longPen(DRAWING_LIMITS.penPoints - 80),
  ...Array.from({ length: 9 }, (_, i) => longPen(DRAWING_LIMITS.penPoints, i + 1)),
  ...Array.from({ length: 40 }, () => EVERY_KIND[2]!),
];
