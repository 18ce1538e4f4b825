import { annotationIssues } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import { relativeTime } from "../../entities/format";
import { clock, mentionQuery, mentionRuns, popoverPosition, shapeOf, toPercent } from "./review-math";

describe("relativeTime", () => {
  const now = Date.parse("2026-11-24T12:00:00Z");
  const ago = (s: number) => new Date(now - s * 1000).toISOString();
  it("says just now, minutes, hours and days, then a date", () => {
    expect(relativeTime(ago(59), now)).toBe("just now");
    expect(relativeTime(ago(60), now)).toBe("1m ago");
    expect(relativeTime(ago(3599), now)).toBe("59m ago");
    expect(relativeTime(ago(3600 * 5), now)).toBe("5h ago");
    expect(relativeTime(ago(86_400 * 6), now)).toBe("6d ago");
    expect(relativeTime(ago(86_400 * 8), now, "en-GB")).toBe("16/11/2026");
    expect(relativeTime("nonsense", now)).toBe("N/A");
  });
});

describe("drawing", () => {
  const rect = { left: 100, top: 50, width: 400, height: 200 };
  it("maps pointer positions to percent of the on-screen box, clamped", () => {
    expect(toPercent(rect, 300, 150)).toEqual({ x: 50, y: 50 });
    expect(toPercent(rect, 0, 500)).toEqual({ x: 0, y: 100 });
  });
  it("a drag under 1 % both ways is a POINT; more is an AREA from the minimum corner", () => {
    expect(shapeOf({ x: 10, y: 10 }, { x: 10.9, y: 10.5 })).toEqual({ annotation_type: "POINT", x: 10, y: 10 });
    expect(shapeOf({ x: 40, y: 30 }, { x: 10, y: 35 })).toEqual({
      annotation_type: "AREA",
      x: 10,
      y: 30,
      width: 30,
      height: 5,
    });
    // 1 % one way is enough for an area.
    expect(shapeOf({ x: 10, y: 10 }, { x: 11, y: 10 }).annotation_type).toBe("AREA");
  });
});

describe("popoverPosition", () => {
  const viewport = { width: 1000, height: 700 };
  it("sits right of the anchor when 300 px and the margin fit, else left", () => {
    expect(popoverPosition({ left: 100, top: 100, right: 110, bottom: 110 }, viewport)).toEqual({
      left: 122,
      top: 100,
    });
    expect(popoverPosition({ left: 800, top: 100, right: 810, bottom: 110 }, viewport)).toEqual({
      left: 488,
      top: 100,
    });
  });
  it("stays 16 px inside the viewport", () => {
    expect(popoverPosition({ left: 5, top: 690, right: 15, bottom: 700 }, viewport)).toEqual({ left: 27, top: 534 });
    // No room on either side: above the anchor (below would leave the viewport).
    expect(popoverPosition({ left: 200, top: 200, right: 210, bottom: 210 }, { width: 320, height: 300 })).toEqual({
      left: 16,
      top: 38,
    });
  });
  it("on a phone stays inside the picture's area above the sheet, below or above the marker", () => {
    // The picture's area: 390 × 300 under a 56 px header; the sheet of comments starts at y = 356.
    const area = { left: 0, top: 56, width: 390, height: 300 };
    expect(popoverPosition({ left: 180, top: 80, right: 204, bottom: 104 }, area)).toEqual({ left: 42, top: 116 });
    expect(popoverPosition({ left: 180, top: 300, right: 204, bottom: 324 }, area)).toEqual({ left: 42, top: 138 });
    // Too small an area for either: its top-left corner, the margin kept.
    const small = { left: 0, top: 56, width: 200, height: 100 };
    expect(popoverPosition({ left: 10, top: 60, right: 20, bottom: 70 }, small)).toEqual({ left: 16, top: 72 });
  });
});

describe("mentions", () => {
  it("splits text into runs around the names mentioned", () => {
    expect(mentionRuns("hi @Ada Lovelace and @Bob", ["Ada Lovelace", "Bob"])).toEqual([
      { text: "hi ", mention: false },
      { text: "@Ada Lovelace", mention: true },
      { text: " and ", mention: false },
      { text: "@Bob", mention: true },
    ]);
    expect(mentionRuns("no names", [])).toEqual([{ text: "no names", mention: false }]);
  });
  it("finds the @query at the caret", () => {
    expect(mentionQuery("hello @ad", 9)).toEqual({ start: 6, query: "ad" });
    expect(mentionQuery("mail@host", 9)).toBeNull();
    expect(mentionQuery("@", 1)).toEqual({ start: 0, query: "" });
  });
  it("formats video times", () => {
    expect(clock(3.4)).toBe("00:03");
    expect(clock(3723)).toBe("1:02:03");
  });
});

describe("drawn shapes the server accepts (spec 02 §4, contract annotationIssues)", () => {
  it("clamps a zero-sized box instead of dividing by zero", () => {
    expect(toPercent({ left: 10, top: 10, width: 0, height: 0 }, 10, 10)).toEqual({ x: 0, y: 0 });
  });

  it("a small drag up and left is still a POINT where it started", () => {
    expect(shapeOf({ x: 50, y: 50 }, { x: 49.2, y: 49.5 })).toEqual({ annotation_type: "POINT", x: 50, y: 50 });
  });

  it("a drag along one axis is an AREA with a minimal size the other way", () => {
    expect(shapeOf({ x: 10, y: 10 }, { x: 30, y: 10 })).toEqual({
      annotation_type: "AREA",
      x: 10,
      y: 10,
      width: 20,
      height: 0.01,
    });
  });

  it("rounds to hundredths of a percent", () => {
    expect(shapeOf({ x: 10.123, y: 20.456 }, { x: 30.789, y: 40.1 })).toEqual({
      annotation_type: "AREA",
      x: 10.12,
      y: 20.46,
      width: 20.67,
      height: 19.64,
    });
  });

  it("moves an area drawn along the right or bottom edge inside the image", () => {
    expect(shapeOf({ x: 100, y: 20 }, { x: 100, y: 60 })).toEqual({
      annotation_type: "AREA",
      x: 99.99,
      y: 20,
      width: 0.01,
      height: 40,
    });
  });

  it("keeps every drag inside the image, the edges included", () => {
    const stops = [0, 0.004, 0.5, 33.333, 50, 89.995, 99.2, 99.995, 100];
    const refused: string[] = [];
    for (const x1 of stops)
      for (const y1 of stops)
        for (const x2 of stops)
          for (const y2 of stops) {
            const shape = shapeOf({ x: x1, y: y1 }, { x: x2, y: y2 });
            const issues = annotationIssues(shape);
            if (issues.length) refused.push(`${x1},${y1} → ${x2},${y2}: ${JSON.stringify(shape)}`);
          }
    expect(refused.slice(0, 5)).toEqual([]);
  });
});
