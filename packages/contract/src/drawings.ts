import { z } from "zod";

/**
 * Drawings on the work (issue 31): a comment whose `annotation_type` is `DRAWING` carries `shapes`,
 * drawn on the picture it was made on: an image, a document page (with `page`) or a video frame
 * (with `timestamp`, the coordinates then on that frame).
 *
 * - Coordinates are percent of the picture, `[x, y]` from its top-left corner, each within 0–100 (a
 *   shape may not leave the picture) and kept to 1/100 of a percent (a pixel of a 10,000 px picture).
 * - `pen`: a freehand stroke, 1 to DRAWING_LIMITS.penPoints points in drawing order (the client
 *   simplifies it first; one point is a dot).
 * - `line`, `arrow`: exactly 2 points, from → to (the arrow's head is at the second), apart.
 * - `rect`, `ellipse`: exactly 2 points, opposite corners of the box (either pair, in either order);
 *   the ellipse is the one inscribed in that box. The box has a width and a height.
 * - `color`: one of DRAWING_COLORS. `width`: 1–8, a step of DRAWING_STROKE_UNIT percent of the
 *   picture's shorter side (how the report draws it; see there).
 * - At most DRAWING_LIMITS.shapes shapes and DRAWING_LIMITS.totalPoints points in one comment.
 *
 * A drawing's marker (its number, where a viewer pins it) is its first shape's first point: the
 * answer's `x`/`y` say so, and a drawing is sent without x, y, width or height.
 */
export const DRAWING_SHAPE_KINDS = ["pen", "line", "arrow", "rect", "ellipse"] as const;
export const DrawingShapeKind = z.enum(DRAWING_SHAPE_KINDS);
export type DrawingShapeKind = z.infer<typeof DrawingShapeKind>;

/** The fixed palette (the web's swatch row, in this order): red, orange, yellow, green, blue, violet, white, black. */
export const DRAWING_COLORS = [
  "#E03131",
  "#F76707",
  "#FAB005",
  "#2F9E44",
  "#1C7ED6",
  "#AE3EC9",
  "#FFFFFF",
  "#000000",
] as const;
export const DrawingColor = z.enum(DRAWING_COLORS, { message: "Pick a colour from the palette" });
export type DrawingColor = z.infer<typeof DrawingColor>;
/** The colour a new drawing starts with. */
export const DRAWING_DEFAULT_COLOR: DrawingColor = "#E03131";

export const DRAWING_LIMITS = {
  shapes: 50,
  penPoints: 2_000,
  /** All shapes of one comment together: a bound on what one comment stores and a report draws. */
  totalPoints: 20_000,
  minWidth: 1,
  maxWidth: 8,
} as const;
/** The three widths the web offers. */
export const DRAWING_WIDTHS = [2, 4, 8] as const;
/** A stroke of width `w` is `w × DRAWING_STROKE_UNIT` percent of the picture's shorter side. */
export const DRAWING_STROKE_UNIT = 0.25;

/** Two opposite corners or the ends of a line: 2 points; a pen stroke: 1 to penPoints. */
export const pointCount = (kind: DrawingShapeKind) =>
  kind === "pen" ? { min: 1, max: DRAWING_LIMITS.penPoints } : { min: 2, max: 2 };

/** `[x, y]` in percent of the picture. */
export type DrawingPoint = [number, number];

/**
 * Points are checked in one pass rather than by a zod schema per pair: 20,000 points through tuple
 * schemas took 0.1–0.5 s of a request's CPU, on the way in and again when the answer is checked on
 * its way out. The first bad pair or coordinate is named (`points.12.0`).
 */
const points = z
  .custom<DrawingPoint[]>()
  .superRefine((v, ctx) => {
    if (!Array.isArray(v)) {
      ctx.addIssue({ code: "custom", message: "Points are a list of [x, y] pairs" });
      return;
    }
    for (let i = 0; i < v.length; i++) {
      const p: unknown = v[i];
      if (!Array.isArray(p) || p.length !== 2) {
        ctx.addIssue({ code: "custom", path: [i], message: "A point is [x, y]" });
        return;
      }
      for (let j = 0; j < 2; j++) {
        const n: unknown = p[j];
        if (typeof n !== "number" || !Number.isFinite(n)) {
          ctx.addIssue({ code: "custom", path: [i, j], message: "A coordinate is a number" });
          return;
        }
        if (n < 0 || n > 100) {
          ctx.addIssue({ code: "custom", path: [i, j], message: "Must be between 0 and 100" });
          return;
        }
      }
    }
  })
  .meta({
    type: "array",
    description: "[x, y] pairs in percent of the picture, each within 0–100",
    items: {
      type: "array",
      prefixItems: [
        { type: "number", minimum: 0, maximum: 100 },
        { type: "number", minimum: 0, maximum: 100 },
      ],
      minItems: 2,
      maxItems: 2,
    },
  });

/** A shape as answers carry it (and as it is stored). */
export const DrawingShape = z.object({
  kind: DrawingShapeKind,
  points,
  color: DrawingColor,
  width: z.number().int("A width is a whole number").min(DRAWING_LIMITS.minWidth).max(DRAWING_LIMITS.maxWidth),
});
export type DrawingShape = z.infer<typeof DrawingShape>;

const NAMES: Record<DrawingShapeKind, string> = {
  pen: "A pen stroke",
  line: "A line",
  arrow: "An arrow",
  rect: "A rectangle",
  ellipse: "An ellipse",
};

/** What is wrong with one shape's points (besides their range), as a message; null when nothing. */
export function shapePointsIssue(s: Pick<DrawingShape, "kind" | "points">): string | null {
  const { min, max } = pointCount(s.kind);
  if (s.points.length < min || s.points.length > max)
    return min === max
      ? `${NAMES[s.kind]} has exactly ${min} points`
      : `${NAMES[s.kind]} has ${min} to ${max.toLocaleString("en-US")} points`;
  if (s.kind === "pen") return null;
  const [[x1, y1], [x2, y2]] = s.points as [[number, number], [number, number]];
  if ((s.kind === "line" || s.kind === "arrow") && x1 === x2 && y1 === y2) return `${NAMES[s.kind]}'s ends must differ`;
  if ((s.kind === "rect" || s.kind === "ellipse") && (x1 === x2 || y1 === y2))
    return `${NAMES[s.kind]} needs a width and a height`;
  return null;
}

const round = (v: number) => Math.round(v * 100) / 100;

/** A shape as clients send it: coordinates rounded to 1/100 %, then the points checked for its kind. */
export const DrawingShapeInput = DrawingShape.extend({
  points: points.transform((pts) => pts.map(([x, y]): DrawingPoint => [round(x), round(y)])),
}).superRefine((s, ctx) => {
  const issue = shapePointsIssue(s);
  if (issue) ctx.addIssue({ code: "custom", path: ["points"], message: issue });
});

/** The `shapes` of a comment being made: 1 to 50 shapes, at most totalPoints points in all. */
export const DrawingShapesInput = z
  .array(DrawingShapeInput)
  .min(1, "A drawing needs at least one shape")
  .max(DRAWING_LIMITS.shapes, `A drawing has at most ${DRAWING_LIMITS.shapes} shapes`)
  .superRefine((shapes, ctx) => {
    const total = shapes.reduce((n, s) => n + s.points.length, 0);
    if (total > DRAWING_LIMITS.totalPoints)
      ctx.addIssue({
        code: "custom",
        message: `A drawing has at most ${DRAWING_LIMITS.totalPoints.toLocaleString("en-US")} points in all`,
      });
  });

/** Where a drawing's number goes: its first shape's first point. */
export const drawingAnchor = (shapes: readonly DrawingShape[]): { x: number; y: number } | null => {
  const p = shapes[0]?.points[0];
  return p ? { x: p[0], y: p[1] } : null;
};

/**
 * The largest comment body (bytes): a drawing at its limits with coordinates written out in full
 * precision, plus the longest text. Public comment routes take this much too (they take 16 KB otherwise).
 */
export const COMMENT_BODY_LIMIT = 1024 * 1024;
