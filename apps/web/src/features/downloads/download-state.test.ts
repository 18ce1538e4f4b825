import { describe, expect, it } from "vitest";
import {
  type DownloadEvent,
  type DownloadState,
  downloadReducer,
  fallbackZipName,
  IDLE,
  partProgress,
  rangeHeader,
  zipFileName,
} from "./download-state";

const run = (events: DownloadEvent[], from: DownloadState = IDLE) => {
  const seen: DownloadState[] = [];
  let s = from;
  for (const e of events) {
    s = downloadReducer(s, e);
    seen.push(s);
  }
  return seen;
};

describe("download state (spec 01 §4)", () => {
  it("starts at 0 with the flag up", () => {
    const [s] = run([{ type: "start", kind: "asset", label: "a.jpg" }]);
    expect(s).toEqual({ isDownloading: true, progress: 0, kind: "asset", label: "a.jpg" });
  });

  it("rises after each part of a multipart download, then the flag resets at the end", () => {
    const states = run([
      { type: "start", kind: "asset", label: "big.mov" },
      { type: "part", done: 1, total: 4 },
      { type: "part", done: 2, total: 4 },
      { type: "part", done: 3, total: 4 },
      { type: "part", done: 4, total: 4 },
      { type: "triggered" },
      { type: "finished" },
    ]);
    expect(states.map((s) => s.progress)).toEqual([0, 25, 50, 75, 100, 100, 100]);
    expect(states.map((s) => s.isDownloading)).toEqual([true, true, true, true, true, true, false]);
  });

  it("jumps to 50 when a zip is answered and 100 once triggered", () => {
    const states = run([
      { type: "start", kind: "board", label: "Shoot" },
      { type: "answered" },
      { type: "triggered" },
      { type: "finished" },
    ]);
    expect(states.map((s) => [s.isDownloading, s.progress])).toEqual([
      [true, 0],
      [true, 50],
      [true, 100],
      [false, 100],
    ]);
  });

  it("a new start goes back to 0; progress never goes backwards within one download", () => {
    const [, , again] = run([
      { type: "start", kind: "asset", label: "x" },
      { type: "part", done: 3, total: 4 },
      { type: "start", kind: "items", label: "2 items" },
    ]);
    expect(again).toMatchObject({ isDownloading: true, progress: 0, kind: "items" });
    const s = run([
      { type: "start", kind: "asset", label: "x" },
      { type: "part", done: 3, total: 4 },
      { type: "part", done: 2, total: 4 },
    ]).at(-1);
    expect(s?.progress).toBe(75);
  });

  it("ignores progress events while idle, and reset goes back to idle", () => {
    expect(downloadReducer(IDLE, { type: "answered" })).toBe(IDLE);
    expect(downloadReducer(IDLE, { type: "part", done: 1, total: 2 })).toBe(IDLE);
    const busy = downloadReducer(IDLE, { type: "start", kind: "board", label: "b" });
    expect(downloadReducer(busy, { type: "reset" })).toEqual(IDLE);
  });

  it("rounds part progress and clamps it", () => {
    expect(partProgress(1, 3)).toBe(33);
    expect(partProgress(2, 3)).toBe(67);
    expect(partProgress(5, 3)).toBe(100);
    expect(partProgress(0, 0)).toBe(100);
  });
});

describe("zip names", () => {
  it("falls back to download-{ISO date}.zip", () => {
    const now = new Date("2026-03-09T23:15:00.000Z");
    expect(fallbackZipName(now)).toBe("download-2026-03-09.zip");
    expect(zipFileName(undefined, now)).toBe("download-2026-03-09.zip");
    expect(zipFileName("   ", now)).toBe("download-2026-03-09.zip");
    expect(zipFileName("Shoot.zip", now)).toBe("Shoot.zip");
  });
  it("uses today's date when none is given", () => {
    expect(fallbackZipName()).toMatch(/^download-\d{4}-\d{2}-\d{2}\.zip$/);
  });
});

describe("rangeHeader", () => {
  it("is inclusive at both ends", () => {
    expect(rangeHeader({ start_byte: 0, end_byte: 2_097_151 })).toBe("bytes=0-2097151");
  });
});
