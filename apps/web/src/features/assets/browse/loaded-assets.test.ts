import type { Asset } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import { loadedAssets, NO_ASSETS } from "./loaded-assets";

const asset = (id: string) => ({ id }) as Asset;
const page = (...ids: string[]) => ({ data: ids.map(asset) });
const idsOf = (x: { assets: Asset[] }) => x.assets.map((a) => a.id);

describe("loadedAssets", () => {
  it("appends each new page, each asset once, and reads only the new page", () => {
    const p1 = page("a", "b");
    const p2 = page("c", "b"); // b again: a boundary shifted
    const one = loadedAssets(NO_ASSETS, [p1]);
    const two = loadedAssets(one, [p1, p2]);
    expect(idsOf(two)).toEqual(["a", "b", "c"]);
    expect(two.ids).toEqual(["a", "b", "c"]);
    expect(one.assets).toEqual([asset("a"), asset("b")]); // the previous answer is untouched
    // Only the new page is read: an old page's data changed in place is not looked at again.
    (p1.data as Asset[]).push(asset("z"));
    expect(idsOf(loadedAssets(two, [p1, p2, page("d")]))).toEqual(["a", "b", "c", "d"]);
  });

  it("starts over when the pages are not the previous ones plus more", () => {
    const p1 = page("a", "b");
    const two = loadedAssets(loadedAssets(NO_ASSETS, [p1]), [p1, page("c")]);
    expect(idsOf(loadedAssets(two, [page("x", "a"), page("c")]))).toEqual(["x", "a", "c"]);
    expect(idsOf(loadedAssets(two, [p1]))).toEqual(["a", "b"]);
    expect(loadedAssets(two, two.pages)).toBe(two);
  });

  it("is not misled by a computation thrown away (React may render twice)", () => {
    const p1 = page("a");
    const one = loadedAssets(NO_ASSETS, [p1]);
    loadedAssets(one, [p1, page("b", "c")]); // discarded
    // The same previous answer with another next page: b and c were never shown, so they count.
    expect(idsOf(loadedAssets(one, [p1, page("c", "b")]))).toEqual(["a", "c", "b"]);
    expect(idsOf(loadedAssets(one, [p1, page("b", "c")]))).toEqual(["a", "b", "c"]);
  });
});
