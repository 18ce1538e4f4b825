import type { Board } from "@hangar/contract";
import type { BoardLocation } from "../../../entities/board";

/** One row of the first-paint tree. */
export interface LightRow {
  board: Board;
  level: number;
  hasChildren: boolean;
  open: boolean;
}

/** The ids of `id`'s ancestors (the parent chain through the index; empty for a root or unknown board). */
export function ancestorIds(index: Map<string, BoardLocation>, id: string | null): Set<string> {
  const out = new Set<string>();
  let parent = id ? (index.get(id)?.parentId ?? null) : null;
  while (parent && !out.has(parent)) {
    out.add(parent);
    parent = index.get(parent)?.parentId ?? null;
  }
  return out;
}

/**
 * The rows react-arborist shows for the same tree, top to bottom: a board's children follow it when
 * it is open (every board when filtered; the stored open state; the current board's ancestors).
 * Iterative, as the tree helpers are, so a very deep tree cannot overflow the stack.
 */
export function lightRows(boards: readonly Board[], isOpen: (id: string) => boolean, filtered: boolean): LightRow[] {
  const out: LightRow[] = [];
  const stack: { list: readonly Board[]; level: number; i: number }[] = [{ list: boards, level: 0, i: 0 }];
  while (stack.length) {
    const frame = stack[stack.length - 1]!;
    if (frame.i >= frame.list.length) {
      stack.pop();
      continue;
    }
    const board = frame.list[frame.i++]!;
    const children = board.children ?? [];
    const open = filtered || isOpen(board.id);
    out.push({ board, level: frame.level, hasChildren: children.length > 0, open });
    if (open && children.length) stack.push({ list: children, level: frame.level + 1, i: 0 });
  }
  return out;
}
