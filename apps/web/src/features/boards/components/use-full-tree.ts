import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { loadBoardTree } from "../../../entities/board-tree";
import { afterIdle } from "../../../lib/after-idle";
import { loadOnce } from "../../../lib/load-once";
import { whenReleased } from "../../../lib/when-released";

type FullTree = Awaited<ReturnType<typeof loadBoardTree>>;

/** After the page has settled, the full tree loads on its own (when the browser is idle). */
const IDLE_AFTER_MS = 3000;
const IDLE_TIMEOUT_MS = 2000;

/** React-arborist's tree (its drag-and-drop stack included), fetched once per page. */
const fullTree = loadOnce((): Promise<FullTree> => loadBoardTree());

/** Where keyboard focus was in the first-paint tree: a row's control (by its label), or the tree. */
type FocusAt = { boardId: string; label: string } | "tree";

function focusIn(area: HTMLElement | null): FocusAt | null {
  const el = document.activeElement;
  if (!area || !(el instanceof HTMLElement) || !area.contains(el)) return null;
  const boardId = el.closest<HTMLElement>("[data-board-id]")?.dataset.boardId;
  const label = el.getAttribute("aria-label");
  return boardId && label && el.tagName === "BUTTON" ? { boardId, label } : "tree";
}

/** The same control in the full tree (the row rendered), else the tree, takes the focus. */
function focusBack(area: HTMLElement | null, at: FocusAt) {
  if (!area) return;
  const control =
    at === "tree"
      ? null
      : area.querySelector<HTMLElement>(
          `[data-board-id="${CSS.escape(at.boardId)}"] button[aria-label="${CSS.escape(at.label)}"]`,
        );
  (control ?? area.querySelector<HTMLElement>('[role="tree"]'))?.focus();
}

/**
 * The boards panel's tree: null while the first-paint tree shows, then react-arborist's module.
 * `want()` asks for it (pointer over the panel, keyboard focus, an action only it does); it also
 * comes on its own once the page is idle, a few seconds after the panel mounted.
 *
 * The swap never lands between a press and its click (whenReleased, which also renders it at once):
 * a press then reaches either the first-paint tree whole (which hands over what it was asked) or
 * the full one whole. Keyboard focus moves to the same control in the full tree.
 */
export function useFullTree(area: React.RefObject<HTMLElement | null>) {
  const [tree, setTree] = useState<FullTree | null>(fullTree.get);
  const swapped = useRef(!!tree);
  const focusAt = useRef<FocusAt | null>(null);

  const swap = useCallback(
    (mod: FullTree) =>
      whenReleased(() => {
        if (swapped.current) return;
        swapped.current = true;
        focusAt.current = focusIn(area.current);
        setTree(mod);
      }),
    [area],
  );

  const want = useCallback(() => {
    if (swapped.current) return;
    const loaded = fullTree.get();
    if (loaded) swap(loaded);
    else void fullTree.load().then(swap);
  }, [swap]);

  useEffect(() => {
    if (tree) return;
    return afterIdle(want, IDLE_AFTER_MS, IDLE_TIMEOUT_MS);
  }, [tree, want]);

  // Before anything opened by the hand-over (a row's menu) takes the focus from there.
  useLayoutEffect(() => {
    const at = focusAt.current;
    if (!tree || !at) return;
    focusAt.current = null;
    focusBack(area.current, at);
  }, [tree, area]);

  return { tree, want };
}
