import { describe, expect, it } from "vitest";
import { commonTags, formatTags, parseTagInput } from "./tags";

describe("parseTagInput", () => {
  it("splits on commas, trims, drops empties and ignores duplicates in any case", () => {
    expect(parseTagInput("  summer , beach,,  , Summer, campaign 2026 ,beach")).toEqual([
      "summer",
      "beach",
      "campaign 2026",
    ]);
  });
  it("answers nothing for blank input", () => {
    expect(parseTagInput("")).toEqual([]);
    expect(parseTagInput(" , ,, ")).toEqual([]);
  });
  it("keeps the first spelling of a duplicate", () => {
    expect(parseTagInput("Beach, beach, BEACH")).toEqual(["Beach"]);
  });
  it("round-trips through formatTags", () => {
    const tags = ["a", "b c", "d"];
    expect(parseTagInput(formatTags(tags))).toEqual(tags);
  });
});

describe("commonTags", () => {
  it("keeps what every list holds, case-insensitively, in the first list's order", () => {
    expect(
      commonTags([
        ["red", "Blue", "green"],
        ["blue", "red"],
        ["RED", "blue", "x"],
      ]),
    ).toEqual(["red", "Blue"]);
  });
  it("answers nothing for no lists", () => {
    expect(commonTags([])).toEqual([]);
  });
});
