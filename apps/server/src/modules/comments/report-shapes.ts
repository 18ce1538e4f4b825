import { DRAWING_STROKE_UNIT, type DrawingShape } from "@hangar/contract";
import {
  appendBezierCurve,
  clip,
  closePath,
  endPath,
  fill,
  LineCapStyle,
  LineJoinStyle,
  lineTo,
  moveTo,
  type PDFOperator,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  setFillingRgbColor,
  setLineCap,
  setLineJoin,
  setLineWidth,
  setStrokingRgbColor,
  stroke,
} from "pdf-lib";

/** Where a picture sits on the report's page: its bottom-left corner and size, in PDF points. */
export interface PictureBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

const rgbOf = (hex: string): [number, number, number] => [
  Number.parseInt(hex.slice(1, 3), 16) / 255,
  Number.parseInt(hex.slice(3, 5), 16) / 255,
  Number.parseInt(hex.slice(5, 7), 16) / 255,
];

/** A drawn stroke's width in points: `width` steps of DRAWING_STROKE_UNIT % of the picture's shorter side. */
export const strokeWidth = (box: PictureBox, width: number) =>
  (width * DRAWING_STROKE_UNIT * Math.min(box.w, box.h)) / 100;

// A quarter circle as a cubic Bézier: the control points sit this far along the tangents.
const KAPPA = 0.5522847498;

/**
 * The operators that draw `shapes` (percent of the picture) on the picture at `box`: strokes with
 * round ends and joins in the shape's colour and width, arrows with a filled head, clipped to the
 * picture so a thick stroke at its edge stays on it.
 */
export function shapeOperators(shapes: readonly DrawingShape[], box: PictureBox): PDFOperator[] {
  // Percent from the top-left → points from the page's bottom-left.
  const px = (x: number) => box.x + (x / 100) * box.w;
  const py = (y: number) => box.y + box.h - (y / 100) * box.h;
  const ops: PDFOperator[] = [
    pushGraphicsState(),
    rectangle(box.x, box.y, box.w, box.h),
    clip(),
    endPath(),
    setLineCap(LineCapStyle.Round),
    setLineJoin(LineJoinStyle.Round),
  ];
  for (const s of shapes) {
    const [r, g, b] = rgbOf(s.color);
    const lw = strokeWidth(box, s.width);
    ops.push(setStrokingRgbColor(r, g, b), setFillingRgbColor(r, g, b), setLineWidth(lw));
    const pts = s.points.map(([x, y]) => [px(x), py(y)] as const);
    const [p0, p1] = [pts[0]!, pts[1] ?? pts[0]!];
    switch (s.kind) {
      case "pen":
      case "line":
        // One point is a dot: a zero-length segment with round ends.
        ops.push(moveTo(p0[0], p0[1]));
        for (const p of pts.length > 1 ? pts.slice(1) : [p0]) ops.push(lineTo(p[0], p[1]));
        ops.push(stroke());
        break;
      case "arrow": {
        const [dx, dy] = [p1[0] - p0[0], p1[1] - p0[1]];
        const len = Math.hypot(dx, dy) || 1;
        const [ux, uy] = [dx / len, dy / len];
        // The head: long enough to read at any width, never longer than the arrow itself.
        const head = Math.min(Math.max(lw * 4, 8), len);
        const half = head * 0.5;
        const base = [p1[0] - ux * head, p1[1] - uy * head] as const;
        ops.push(moveTo(p0[0], p0[1]), lineTo(base[0], base[1]), stroke());
        ops.push(
          moveTo(p1[0], p1[1]),
          lineTo(base[0] - uy * half, base[1] + ux * half),
          lineTo(base[0] + uy * half, base[1] - ux * half),
          closePath(),
          fill(),
        );
        break;
      }
      case "rect": {
        const [x0, x1] = [Math.min(p0[0], p1[0]), Math.max(p0[0], p1[0])];
        const [y0, y1] = [Math.min(p0[1], p1[1]), Math.max(p0[1], p1[1])];
        ops.push(moveTo(x0, y0), lineTo(x1, y0), lineTo(x1, y1), lineTo(x0, y1), closePath(), stroke());
        break;
      }
      case "ellipse": {
        const [cx, cy] = [(p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2];
        const [rx, ry] = [Math.abs(p1[0] - p0[0]) / 2, Math.abs(p1[1] - p0[1]) / 2];
        const [kx, ky] = [rx * KAPPA, ry * KAPPA];
        ops.push(
          moveTo(cx + rx, cy),
          appendBezierCurve(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
          appendBezierCurve(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
          appendBezierCurve(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
          appendBezierCurve(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
          closePath(),
          stroke(),
        );
        break;
      }
    }
  }
  ops.push(popGraphicsState());
  return ops;
}

/** Draws the shapes on the page over the picture at `box`. */
export function drawShapes(page: PDFPage, shapes: readonly DrawingShape[], box: PictureBox): void {
  page.pushOperators(...shapeOperators(shapes, box));
}
