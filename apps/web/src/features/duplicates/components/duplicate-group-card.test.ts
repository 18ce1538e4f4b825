import type { Asset, DuplicateGroup } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import { defaultKeep, freedBy } from "./duplicate-group-card";

const asset = (id: string, size: number) => ({ id, size }) as Asset;
const group = (assets: Asset[]): DuplicateGroup => ({
  kind: "near",
  asset_ids: assets.map((a) => a.id),
  assets,
  count: assets.length,
  size: assets.reduce((s, a) => s + a.size, 0),
  reclaimable: 0,
  distance: 2,
});

describe("a duplicates group's choice (issue 32)", () => {
  it("keeps the largest by default, the first on a tie", () => {
    expect(defaultKeep(group([asset("a", 10), asset("b", 30), asset("c", 20)]))).toBe("b");
    expect(defaultKeep(group([asset("a", 10), asset("b", 10)]))).toBe("a");
  });

  it("frees the bytes of the others", () => {
    const g = group([asset("a", 10), asset("b", 30), asset("c", 20)]);
    expect(freedBy(g, "b")).toBe(30);
    expect(freedBy(g, "a")).toBe(50);
  });
});
