import { formatBytes } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import { relativeTime, timecode } from "./dates";

const NOW = Date.parse("2026-11-23T12:00:00Z");
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe("relative time (spec 02 §9)", () => {
  it("says just now under a minute", () => {
    expect(relativeTime(ago(0), NOW)).toBe("just now");
    expect(relativeTime(ago(59_999), NOW)).toBe("just now");
  });
  it("counts minutes, hours and days", () => {
    expect(relativeTime(ago(60_000), NOW)).toBe("1m ago");
    expect(relativeTime(ago(59 * 60_000), NOW)).toBe("59m ago");
    expect(relativeTime(ago(60 * 60_000), NOW)).toBe("1h ago");
    expect(relativeTime(ago(23 * 3_600_000 + 59 * 60_000), NOW)).toBe("23h ago");
    expect(relativeTime(ago(24 * 3_600_000), NOW)).toBe("1d ago");
    expect(relativeTime(ago(6 * 86_400_000 + 3_600_000), NOW)).toBe("6d ago");
  });
  it("gives a locale date from 7 days on", () => {
    const iso = ago(7 * 86_400_000);
    expect(relativeTime(iso, NOW, "en-GB")).toBe(new Date(iso).toLocaleDateString("en-GB"));
    expect(relativeTime(iso, NOW, "en-GB")).toBe("16/11/2026");
  });
  it("says N/A for a missing or broken date", () => {
    expect(relativeTime(null, NOW)).toBe("N/A");
    expect(relativeTime(undefined, NOW)).toBe("N/A");
    expect(relativeTime("not a date", NOW)).toBe("N/A");
  });
});

describe("sizes in 1024 units, B to TB, 2 decimals (spec 02 §9)", () => {
  it.each([
    [0, "0 B"],
    [512, "512 B"],
    [1536, "1.50 KB"],
    [12 * 1024 ** 2, "12.00 MB"],
    [3.25 * 1024 ** 3, "3.25 GB"],
    [2 * 1024 ** 4, "2.00 TB"],
    [5 * 1024 ** 5, "5120.00 TB"],
  ])("%d bytes → %s", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe("timecode", () => {
  it("formats minutes, hours and frames", () => {
    expect(timecode(0)).toBe("0:00");
    expect(timecode(65.4)).toBe("1:05");
    expect(timecode(3725)).toBe("1:02:05");
    expect(timecode(1.5, 24)).toBe("00:00:01:12");
    expect(timecode(1.999, 25)).toBe("00:00:01:24");
    expect(timecode(3725.04, 25)).toBe("01:02:05:01");
  });
});
