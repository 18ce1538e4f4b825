import type { Board } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import { indexTree } from "../../../entities/board";
import { ancestorIds, lightRows } from "./light-rows";

const board = (id: string, children: Board[] = []): Board =>
  ({ id, name: id.toUpperCase(), parent_id: null, children }) as unknown as Board;

const tree = [board("a", [board("a1", [board("a1x")]), board("a2")]), board("b"), board("c", [board("c1")])];
const show = (rows: ReturnType<typeof lightRows>) =>
  rows.map((r) => `${r.level}:${r.board.id}${r.hasChildren ? (r.open ? "-" : "+") : ""}`);

describe("the first-paint tree's rows", () => {
  it("shows the root level with closed folders when nothing is open", () => {
    expect(show(lightRows(tree, () => false, false))).toEqual(["0:a+", "0:b", "0:c+"]);
  });

  it("puts an open board's children right after it, one level deeper, in sibling order", () => {
    const open = new Set(["a", "a1"]);
    expect(show(lightRows(tree, (id) => open.has(id), false))).toEqual([
      "0:a-",
      "1:a1-",
      "2:a1x",
      "1:a2",
      "0:b",
      "0:c+",
    ]);
  });

  it("keeps a closed parent's open children hidden", () => {
    expect(show(lightRows(tree, (id) => id === "a1", false))).toEqual(["0:a+", "0:b", "0:c+"]);
  });

  it("opens everything when filtered", () => {
    expect(show(lightRows(tree, () => false, true))).toEqual(["0:a-", "1:a1-", "2:a1x", "1:a2", "0:b", "0:c-", "1:c1"]);
  });

  it("answers the current board's ancestors (so they show open), none for a root or unknown board", () => {
    const index = indexTree(tree);
    expect([...ancestorIds(index, "a1x")].sort()).toEqual(["a", "a1"]);
    expect(ancestorIds(index, "b").size).toBe(0);
    expect(ancestorIds(index, "nope").size).toBe(0);
    expect(ancestorIds(index, null).size).toBe(0);
  });

  it("walks a very deep tree without overflowing the stack", () => {
    let deep = board("leaf");
    for (let i = 0; i < 20_000; i++) deep = board(`n${i}`, [deep]);
    const rows = lightRows([deep], () => true, false);
    expect(rows).toHaveLength(20_001);
    expect(rows.at(-1)?.level).toBe(20_000);
    expect(ancestorIds(indexTree([deep]), "leaf").size).toBe(20_000);
  });
});
