import { type Board, TREE_FILTER_YIELD_EVERY } from "@hangar/contract";

/**
 * Pure helpers over the nested board tree that GET /boards?recursive=true answers (children arrays in
 * sibling order). Everything here is immutable: a changed parent gets a new object and a new children
 * array, untouched subtrees keep their identity.
 */

export interface BoardLocation {
  board: Board;
  parentId: string | null;
  /** Index among its siblings. */
  index: number;
  /** Pre-order position in the whole tree (the order rows appear in when everything is open). */
  order: number;
}

/** id → where the board sits. One walk, iterative so 10,000 deep boards cannot overflow the stack. */
export function indexTree(roots: readonly Board[]): Map<string, BoardLocation> {
  const map = new Map<string, BoardLocation>();
  const stack: { list: readonly Board[]; parentId: string | null; i: number }[] = [
    { list: roots, parentId: null, i: 0 },
  ];
  let order = 0;
  while (stack.length) {
    const frame = stack[stack.length - 1]!;
    if (frame.i >= frame.list.length) {
      stack.pop();
      continue;
    }
    const index = frame.i++;
    const board = frame.list[index]!;
    map.set(board.id, { board, parentId: frame.parentId, index, order: order++ });
    if (board.children?.length) stack.push({ list: board.children, parentId: board.id, i: 0 });
  }
  return map;
}

/** The children of `parentId` (null: the root level). */
export function childrenOf(roots: readonly Board[], index: Map<string, BoardLocation>, parentId: string | null) {
  if (parentId === null) return roots;
  return index.get(parentId)?.board.children ?? [];
}

/** Ids from the root down to `id`'s parent (excluding `id`); empty for a root board or an unknown id. */
export function ancestorIds(index: Map<string, BoardLocation>, id: string): string[] {
  const out: string[] = [];
  let parent = index.get(id)?.parentId ?? null;
  while (parent) {
    out.unshift(parent);
    parent = index.get(parent)?.parentId ?? null;
  }
  return out;
}

/** True when `id` is `ancestor` or lies somewhere below it. */
export function isSelfOrDescendant(index: Map<string, BoardLocation>, id: string, ancestor: string): boolean {
  let current: string | null = id;
  while (current) {
    if (current === ancestor) return true;
    current = index.get(current)?.parentId ?? null;
  }
  return false;
}

/**
 * Drops ids whose ancestor is also listed (deleting or moving the ancestor takes them along) and sorts
 * the rest in tree order, so a multi-board move keeps the order the user sees.
 */
export function topmostInTreeOrder(index: Map<string, BoardLocation>, ids: Iterable<string>): string[] {
  const set = new Set([...ids].filter((id) => index.has(id)));
  return [...set]
    .filter((id) => !ancestorIds(index, id).some((a) => set.has(a)))
    .sort((a, b) => index.get(a)!.order - index.get(b)!.order);
}

/** Every id in the subtree of `id`, itself included. */
export function subtreeIds(index: Map<string, BoardLocation>, id: string): string[] {
  const start = index.get(id)?.board;
  if (!start) return [];
  const out: string[] = [];
  const stack: Board[] = [start];
  while (stack.length) {
    const board = stack.pop()!;
    out.push(board.id);
    for (const child of board.children ?? []) stack.push(child);
  }
  return out;
}

/** Rebuilds `list` and below through `fn`; keeps identity where nothing changed. */
function rebuild(
  list: readonly Board[],
  parentId: string | null,
  fn: (children: Board[], parentId: string | null) => Board[],
): Board[] {
  const mapped = list.map((board) => {
    const kids = board.children ?? [];
    const next = rebuild(kids, board.id, fn);
    if (next === kids) return board;
    return { ...board, children: next, child_count: next.length };
  });
  const changedChildren = mapped.some((b, i) => b !== list[i]);
  const result = fn(changedChildren ? mapped : [...list], parentId);
  const same = result.length === list.length && result.every((b, i) => b === list[i]);
  return same ? (list as Board[]) : result.map((b, i) => (b.position === i ? b : { ...b, position: i }));
}

/**
 * The tree after moving `ids` under `targetId` (null: root) at `insertIndex` among the target's children
 * as they are after removing the moved boards; null appends. Child counts and positions follow.
 */
export function moveInTree(
  roots: readonly Board[],
  ids: readonly string[],
  targetId: string | null,
  insertIndex: number | null,
): Board[] {
  const index = indexTree(roots);
  const moving = topmostInTreeOrder(index, ids).map((id) => index.get(id)!.board);
  const movingIds = new Set(moving.map((b) => b.id));
  return rebuild(roots, null, (children, parentId) => {
    let next = children.filter((b) => !movingIds.has(b.id));
    if (parentId === targetId) {
      const at = insertIndex === null ? next.length : Math.max(0, Math.min(insertIndex, next.length));
      const placed = moving.map((b) => (b.parent_id === targetId ? b : { ...b, parent_id: targetId }));
      next = [...next.slice(0, at), ...placed, ...next.slice(at)];
    }
    return next;
  });
}

/** The tree with `board` appended to its parent's children. */
export function insertInTree(roots: readonly Board[], board: Board): Board[] {
  const added = { ...board, children: board.children ?? [] };
  return rebuild(roots, null, (children, parentId) =>
    parentId === board.parent_id ? [...children.filter((b) => b.id !== board.id), added] : children,
  );
}

/** The tree without `ids` (and everything below them). */
export function removeFromTree(roots: readonly Board[], ids: readonly string[]): Board[] {
  const gone = new Set(ids);
  return rebuild(roots, null, (children) => children.filter((b) => !gone.has(b.id)));
}

/** The tree with one board renamed. */
export function renameInTree(roots: readonly Board[], id: string, name: string): Board[] {
  return rebuild(roots, null, (children) => children.map((b) => (b.id === id ? { ...b, name } : b)));
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The tree reduced to boards whose name contains `term` (case-insensitive) plus their ancestors, so
 * matches keep their place. Works in chunks of TREE_FILTER_YIELD_EVERY nodes and yields to the event
 * loop between chunks (spec 01 §9), so typing stays smooth with 10,000 boards. Resolves null when
 * `signal` aborts (a newer term arrived).
 */
export async function filterTreeChunked(
  roots: readonly Board[],
  term: string,
  signal: AbortSignal,
): Promise<{ tree: Board[]; matches: number } | null> {
  const needle = term.trim().toLocaleLowerCase();
  // Post-order walk with an explicit stack: a parent is decided after its children.
  type Frame = { board: Board | null; list: readonly Board[]; i: number; kept: Board[] };
  const rootFrame: Frame = { board: null, list: roots, i: 0, kept: [] };
  const stack: Frame[] = [rootFrame];
  let matches = 0;
  let sinceYield = 0;
  while (stack.length) {
    const frame = stack[stack.length - 1]!;
    if (frame.i < frame.list.length) {
      const board = frame.list[frame.i++]!;
      stack.push({ board, list: board.children ?? [], i: 0, kept: [] });
      if (++sinceYield >= TREE_FILTER_YIELD_EVERY) {
        sinceYield = 0;
        await nextTask();
        if (signal.aborted) return null;
      }
      continue;
    }
    stack.pop();
    const { board, kept } = frame;
    if (!board) break;
    const hit = board.name.toLocaleLowerCase().includes(needle);
    if (hit) matches++;
    if (hit || kept.length) {
      stack[stack.length - 1]!.kept.push({ ...board, children: kept });
    }
  }
  return signal.aborted ? null : { tree: rootFrame.kept, matches };
}
