import {
  DRAWING_DEFAULT_COLOR,
  DRAWING_LIMITS,
  DRAWING_STROKE_UNIT,
  DRAWING_WIDTHS,
  type DrawingColor,
  type DrawingPoint,
  type DrawingShape,
  type DrawingShapeKind,
} from "@hangar/contract";
import simplify from "simplify-js";

/**
 * The annotation tools (issue 31): Point and Area are the spec's annotations (a click, a drag); the
 * others draw shapes that are posted together as one DRAWING comment.
 */
export const ANNOTATION_TOOLS = ["point", "area", "pen", "line", "arrow", "rect", "ellipse"] as const;
export type AnnotationTool = (typeof ANNOTATION_TOOLS)[number];

export const TOOL_LABELS: Record<AnnotationTool, string> = {
  point: "Point",
  area: "Area",
  pen: "Pen",
  line: "Line",
  arrow: "Arrow",
  rect: "Rectangle",
  ellipse: "Ellipse",
};

/** Keys that choose a tool while the preview has focus (the arrow has none: A is the area's). */
export const TOOL_KEYS: Partial<Record<string, AnnotationTool>> = {
  p: "point",
  a: "area",
  d: "pen",
  l: "line",
  r: "rect",
  e: "ellipse",
};
export const toolKey = (tool: AnnotationTool) =>
  Object.entries(TOOL_KEYS)
    .find(([, t]) => t === tool)?.[0]
    ?.toUpperCase() ?? null;

export const isShapeTool = (tool: AnnotationTool): tool is DrawingShapeKind => tool !== "point" && tool !== "area";

export interface Pen {
  tool: AnnotationTool;
  color: DrawingColor;
  width: (typeof DRAWING_WIDTHS)[number];
}
export const DEFAULT_PEN: Pen = { tool: "area", color: DRAWING_DEFAULT_COLOR, width: DRAWING_WIDTHS[1] };

const clamp = (v: number) => Math.min(100, Math.max(0, v));
/** Kept to 1/100 of a percent, as the server stores it. */
export const round2 = (v: number) => Math.round(clamp(v) * 100) / 100;
const pt = (p: { x: number; y: number }): DrawingPoint => [round2(p.x), round2(p.y)];

/**
 * A freehand stroke as sent: simplified (Ramer–Douglas–Peucker, by simplify-js) until it fits the
 * point limit, to a tolerance of a tenth of a percent at least; consecutive duplicates dropped.
 */
export function penPoints(raw: Array<{ x: number; y: number }>): DrawingPoint[] {
  let tolerance = 0.1;
  let out = simplify(raw, tolerance, true);
  while (out.length > DRAWING_LIMITS.penPoints) {
    tolerance *= 2;
    out = simplify(raw, tolerance, true);
  }
  const points: DrawingPoint[] = [];
  for (const p of out) {
    const q = pt(p);
    const last = points[points.length - 1];
    if (!last || last[0] !== q[0] || last[1] !== q[1]) points.push(q);
  }
  return points;
}

/**
 * The shape a drag makes with a shape tool, or null when it is too small to be one (a line's ends
 * or a box's corners the same after rounding; a pen stroke always has at least its first point).
 */
export function shapeFromDrag(
  pen: Pen & { tool: DrawingShapeKind },
  path: Array<{ x: number; y: number }>,
): DrawingShape | null {
  const first = path[0];
  const last = path[path.length - 1];
  if (!first || !last) return null;
  const base = { kind: pen.tool, color: pen.color, width: pen.width };
  if (pen.tool === "pen") return { ...base, points: penPoints(path) };
  const a = pt(first);
  const b = pt(last);
  if (pen.tool === "line" || pen.tool === "arrow")
    return a[0] === b[0] && a[1] === b[1] ? null : { ...base, points: [a, b] };
  return a[0] === b[0] || a[1] === b[1] ? null : { ...base, points: [a, b] };
}

/** Everything a drawing covers, in percent: where its text box and marker go. */
export function boundsOf(shapes: DrawingShape[]) {
  let minX = 100;
  let minY = 100;
  let maxX = 0;
  let maxY = 0;
  for (const s of shapes)
    for (const [x, y] of s.points) {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
  return { x: minX, y: minY, width: Math.max(0, maxX - minX), height: Math.max(0, maxY - minY) };
}

/**
 * A stroke's width on screen in CSS pixels at zoom 1: `width × DRAWING_STROKE_UNIT` percent of the
 * picture's shorter side, as the PDF report draws it, never under one pixel. Zooming keeps it (the
 * layer divides by the zoom), so a mark stays a mark at 400 %.
 */
export const strokePx = (width: number, box: { width: number; height: number }) =>
  Math.max(1, (width * DRAWING_STROKE_UNIT * Math.min(box.width, box.height)) / 100);

/**
 * The arrow's head: two barbs from the tip, drawn in screen proportions (the layer's box is not
 * square, so percent coordinates would skew it), `length` pixels long at 28° from the shaft.
 */
export function arrowHead(
  from: DrawingPoint,
  to: DrawingPoint,
  box: { width: number; height: number },
  length: number,
): [DrawingPoint, DrawingPoint] {
  const w = box.width || 1;
  const h = box.height || 1;
  const dx = ((to[0] - from[0]) * w) / 100;
  const dy = ((to[1] - from[1]) * h) / 100;
  const angle = Math.atan2(dy, dx);
  const spread = (28 * Math.PI) / 180;
  const barb = (sign: number): DrawingPoint => [
    to[0] - ((Math.cos(angle + sign * spread) * length) / w) * 100,
    to[1] - ((Math.sin(angle + sign * spread) * length) / h) * 100,
  ];
  return [barb(1), barb(-1)];
}

/**
 * A shape as one SVG path in the layer's percent coordinates (viewBox 0 0 100 100): a pen stroke as
 * its polyline (one point: a dot, a zero-length segment with round caps), a line, an arrow with its
 * head (see arrowHead: `box` is the layer's size in pixels, `head` the head's length), a rectangle,
 * an ellipse as two arcs.
 */
export function shapePath(
  shape: Pick<DrawingShape, "kind" | "points">,
  box: { width: number; height: number },
  head: number,
): string {
  const pts = shape.points;
  const [a, b] = [pts[0], pts[1]];
  if (!a) return "";
  switch (shape.kind) {
    case "pen": {
      let d = `M${a[0]} ${a[1]}`;
      if (pts.length === 1) return `${d}L${a[0]} ${a[1]}`;
      for (let i = 1; i < pts.length; i++) d += `L${pts[i]![0]} ${pts[i]![1]}`;
      return d;
    }
    case "line":
      return b ? `M${a[0]} ${a[1]}L${b[0]} ${b[1]}` : "";
    case "arrow": {
      if (!b) return "";
      const [l, r] = arrowHead(a, b, box, head);
      return `M${a[0]} ${a[1]}L${b[0]} ${b[1]}M${l[0]} ${l[1]}L${b[0]} ${b[1]}L${r[0]} ${r[1]}`;
    }
    case "rect": {
      if (!b) return "";
      return `M${a[0]} ${a[1]}L${b[0]} ${a[1]}L${b[0]} ${b[1]}L${a[0]} ${b[1]}Z`;
    }
    case "ellipse": {
      if (!b) return "";
      const cx = (a[0] + b[0]) / 2;
      const cy = (a[1] + b[1]) / 2;
      const rx = Math.abs(b[0] - a[0]) / 2;
      const ry = Math.abs(b[1] - a[1]) / 2;
      return `M${cx - rx} ${cy}A${rx} ${ry} 0 1 0 ${cx + rx} ${cy}A${rx} ${ry} 0 1 0 ${cx - rx} ${cy}Z`;
    }
  }
}

/** The head of an arrow drawn `px` wide: long enough to read at a thin stroke, in proportion at a thick one. */
export const headLength = (px: number) => Math.max(10, px * 3.5);

/**
 * A video comment is shown on the frame (its shapes, its marker) while the player is paused within
 * half a frame of its time, or anywhere inside its range.
 */
export function onFrame(c: { timestamp: number | null; duration?: number | null }, time: number, fps: number) {
  if (c.timestamp === null) return false;
  const half = 0.5 / (fps > 0 ? fps : 25);
  if (c.duration) return time >= c.timestamp - half && time <= c.timestamp + c.duration + half;
  return Math.abs(time - c.timestamp) <= half;
}

/** A video time as the API takes it: to the millisecond. */
export const roundMs = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** A finished in/out range as a comment's `timestamp` and `duration`. */
export const rangeTime = (r: { in: number; out: number }) => ({ timestamp: r.in, duration: roundMs(r.out - r.in) });
