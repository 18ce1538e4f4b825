import { DRAWING_LIMITS } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import { arrowHead, boundsOf, onFrame, penPoints, shapeFromDrag, shapePath, strokePx } from "./tools";

const pen = { color: "#E03131" as const, width: 4 as const };

describe("drawing tools", () => {
  it("simplifies a pen stroke to fit the point limit, keeping its ends and rounding to 1/100", () => {
    // A 6,000-point wiggle: too many to send as drawn.
    const raw = Array.from({ length: 6_000 }, (_, i) => ({ x: (i / 6_000) * 100, y: 50 + 20 * Math.sin(i / 40) }));
    const points = penPoints(raw);
    expect(points.length).toBeLessThanOrEqual(DRAWING_LIMITS.penPoints);
    expect(points.length).toBeGreaterThan(20);
    expect(points[0]).toEqual([0, 50]);
    expect(points.at(-1)![0]).toBeCloseTo(99.98, 2);
    for (const [x, y] of points) {
      expect(Math.abs(x * 100 - Math.round(x * 100))).toBeLessThan(1e-6);
      expect(y).toBeGreaterThanOrEqual(0);
    }
    // A straight line collapses to its two ends; a tap is a dot.
    expect(penPoints(Array.from({ length: 500 }, (_, i) => ({ x: i / 10, y: 10 })))).toEqual([
      [0, 10],
      [49.9, 10],
    ]);
    expect(penPoints([{ x: 5, y: 5 }])).toEqual([[5, 5]]);
  });

  it("makes a shape from a drag, or nothing when it has no length or no box", () => {
    const drag = (tool: "line" | "arrow" | "rect" | "ellipse", a: [number, number], b: [number, number]) =>
      shapeFromDrag({ ...pen, tool }, [
        { x: a[0], y: a[1] },
        { x: b[0], y: b[1] },
      ]);
    expect(drag("arrow", [10, 10], [30.004, 40])).toEqual({
      kind: "arrow",
      ...pen,
      points: [
        [10, 10],
        [30, 40],
      ],
    });
    expect(drag("line", [10, 10], [10.001, 10.002])).toBeNull();
    expect(drag("rect", [10, 10], [40, 10])).toBeNull();
    expect(drag("ellipse", [40, 60], [10, 20])?.points).toEqual([
      [40, 60],
      [10, 20],
    ]);
    // Outside the picture (a drag past its edge) is clamped in.
    expect(drag("rect", [-5, 50], [120, 101])?.points).toEqual([
      [0, 50],
      [100, 100],
    ]);
  });

  it("draws an arrow's head in screen proportions, so it is not skewed on a wide picture", () => {
    // A horizontal arrow on a 2:1 box: the barbs are symmetric about the shaft, `length` px back.
    const [l, r] = arrowHead([10, 50], [60, 50], { width: 1000, height: 500 }, 20);
    expect(l[1] - 50).toBeCloseTo(-(r[1] - 50), 6);
    const dxPx = ((60 - l[0]) / 100) * 1000;
    const dyPx = ((50 - l[1]) / 100) * 500;
    expect(Math.hypot(dxPx, dyPx)).toBeCloseTo(20, 6);
    expect(
      shapePath(
        {
          kind: "arrow",
          points: [
            [10, 50],
            [60, 50],
          ],
        },
        { width: 1000, height: 500 },
        20,
      ),
    ).toMatch(/^M10 50L60 50M[\d.]+ [\d.]+L60 50L[\d.]+ [\d.]+$/);
  });

  it("writes every kind as one path", () => {
    const box = { width: 800, height: 600 };
    expect(shapePath({ kind: "pen", points: [[1, 2]] }, box, 10)).toBe("M1 2L1 2");
    expect(
      shapePath(
        {
          kind: "rect",
          points: [
            [10, 20],
            [30, 40],
          ],
        },
        box,
        10,
      ),
    ).toBe("M10 20L30 20L30 40L10 40Z");
    expect(
      shapePath(
        {
          kind: "ellipse",
          points: [
            [10, 20],
            [30, 40],
          ],
        },
        box,
        10,
      ),
    ).toBe("M10 30A10 10 0 1 0 30 30A10 10 0 1 0 10 30Z");
  });

  it("measures strokes from the picture's shorter side, and bounds from every point", () => {
    expect(strokePx(4, { width: 1000, height: 500 })).toBe(5); // 4 × 0.25 % of 500
    expect(strokePx(1, { width: 100, height: 100 })).toBe(1); // never under a pixel
    expect(
      boundsOf([
        {
          kind: "line",
          ...pen,
          points: [
            [10, 80],
            [30, 20],
          ],
        },
        { kind: "pen", ...pen, points: [[50, 50]] },
      ]),
    ).toEqual({ x: 10, y: 20, width: 40, height: 60 });
  });

  it("shows a frame comment within half a frame of its time, and a range comment inside its range", () => {
    expect(onFrame({ timestamp: 2 }, 2.019, 25)).toBe(true);
    expect(onFrame({ timestamp: 2 }, 2.021, 25)).toBe(false);
    expect(onFrame({ timestamp: 1, duration: 2.5 }, 3.4, 25)).toBe(true);
    expect(onFrame({ timestamp: 1, duration: 2.5 }, 3.6, 25)).toBe(false);
    expect(onFrame({ timestamp: null }, 0, 25)).toBe(false);
  });
});
