import { describe, expect, it } from "vitest";
import { clickOutcome, isAssetBulkMode, rangeBetween, selectAll } from "./selection";

const order = ["a", "b", "c", "d", "e", "f"];
const plain = { range: false, toggle: false };
const shift = { range: true, toggle: false };
const ctrl = { range: false, toggle: true };

describe("bulk mode (spec 01 §4)", () => {
  it("applies with more than one asset, or one asset and a board", () => {
    expect(isAssetBulkMode(0, 0)).toBe(false);
    expect(isAssetBulkMode(1, 0)).toBe(false);
    expect(isAssetBulkMode(2, 0)).toBe(true);
    expect(isAssetBulkMode(1, 1)).toBe(true);
    expect(isAssetBulkMode(0, 3)).toBe(false);
  });
});

describe("rangeBetween", () => {
  it("answers the ids between two cards inclusive, either direction", () => {
    expect(rangeBetween(order, "b", "e")).toEqual(["b", "c", "d", "e"]);
    expect(rangeBetween(order, "e", "b")).toEqual(["b", "c", "d", "e"]);
    expect(rangeBetween(order, "c", "c")).toEqual(["c"]);
  });
  it("starts at the clicked card when there is no anchor or it is not loaded", () => {
    expect(rangeBetween(order, null, "d")).toEqual(["d"]);
    expect(rangeBetween(order, "gone", "d")).toEqual(["d"]);
    expect(rangeBetween(order, "a", "gone")).toEqual([]);
  });
});

describe("clickOutcome", () => {
  it("a plain click outside bulk mode opens the asset and leaves the selection alone (issue #13)", () => {
    expect(clickOutcome({ selected: ["a"], anchor: "a" }, order, "c", plain, false)).toEqual({
      selected: ["a"],
      anchor: "c",
      open: true,
    });
    expect(clickOutcome({ selected: [], anchor: null }, order, "c", plain, false)).toEqual({
      selected: [],
      anchor: "c",
      open: true,
    });
  });
  it("a plain click in bulk mode adds or removes the asset instead of opening it", () => {
    const current = { selected: ["a", "b"], anchor: "b" };
    expect(clickOutcome(current, order, "d", plain, true)).toEqual({
      selected: ["a", "b", "d"],
      anchor: "d",
      open: false,
    });
    expect(clickOutcome(current, order, "a", plain, true)).toEqual({ selected: ["b"], anchor: "a", open: false });
  });
  it("Ctrl/Cmd-click toggles one asset and moves the anchor", () => {
    const once = clickOutcome({ selected: [], anchor: null }, order, "b", ctrl, false);
    expect(once).toEqual({ selected: ["b"], anchor: "b", open: false });
    const twice = clickOutcome(once, order, "b", ctrl, false);
    expect(twice.selected).toEqual([]);
  });
  it("Shift-click selects the range from the anchor, replacing the selection, and keeps the anchor", () => {
    const first = clickOutcome({ selected: ["f"], anchor: "b" }, order, "e", shift, false);
    expect(first).toEqual({ selected: ["b", "c", "d", "e"], anchor: "b", open: false });
    // A second Shift-click re-draws from the same anchor (shrinks, here).
    expect(clickOutcome(first, order, "c", shift, true).selected).toEqual(["b", "c"]);
  });
  it("Ctrl+Shift-click adds the range to what was selected", () => {
    const out = clickOutcome({ selected: ["f"], anchor: "a" }, order, "c", { range: true, toggle: true }, false);
    expect(out.selected).toEqual(["f", "a", "b", "c"]);
  });
  it("Shift-click with no anchor selects the clicked card and anchors there", () => {
    expect(clickOutcome({ selected: [], anchor: null }, order, "d", shift, false)).toEqual({
      selected: ["d"],
      anchor: "d",
      open: false,
    });
  });
});

it("selectAll takes every loaded card", () => {
  expect(selectAll(order)).toEqual({ selected: order, anchor: "a" });
  expect(selectAll([])).toEqual({ selected: [], anchor: null });
});
