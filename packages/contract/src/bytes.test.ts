import { describe, expect, it } from "vitest";
import { formatBytes } from "./bytes.ts";

describe("formatBytes: 1024 units from B to TB with 2 decimals (spec 02 §9)", () => {
  it.each([
    [0, "0 B"],
    [-5, "0 B"],
    [Number.NaN, "0 B"],
    [1, "1 B"],
    [1023, "1023 B"],
    [1024, "1.00 KB"],
    [1536, "1.50 KB"],
    [10_000, "9.77 KB"],
    [1024 ** 2 - 1, "1.00 MB"],
    [100 * 1024 ** 2, "100.00 MB"],
    [2e9, "1.86 GB"],
    [2 * 1024 ** 3, "2.00 GB"],
    [2048 * 1024 ** 3, "2.00 TB"],
    [5 * 1024 ** 5, "5120.00 TB"],
  ])("%d bytes → %s", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
