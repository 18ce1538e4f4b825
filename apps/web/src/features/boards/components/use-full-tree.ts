import { useCallback, useEffect, useRef, useState } from "react";
import { afterIdle } from "../../../lib/after-idle";
import { loadOnce } from "../../../lib/load-once";
import { whenReleased } from "../../../lib/when-released";

type FullTree = typeof import("./board-tree");

/** After the page has settled, the full tree loads on its own (when the browser is idle). */
const IDLE_AFTER_MS = 3000;
const IDLE_TIMEOUT_MS = 2000;

/** React-arborist's tree (its drag-and-drop stack included), fetched once per page. */
const fullTree = loadOnce((): Promise<FullTree> => import("./board-tree"));

/**
 * The boards panel's tree: null while the first-paint tree shows, then react-arborist's module.
 * `want()` asks for it (pointer over the panel, keyboard focus, an action only it does); it also
 * comes on its own once the page is idle, a few seconds after the panel mounted.
 */
export function useFullTree(area: React.RefObject<HTMLElement | null>) {
  const [tree, setTree] = useState<FullTree | null>(fullTree.get);
  const focusBack = useRef(false);

  const want = useCallback(() => {
    const loaded = fullTree.get();
    if (loaded) {
      setTree(loaded);
      return;
    }
    // Never between a press and its click: the row under the pointer would be replaced.
    void fullTree.load().then((mod) =>
      whenReleased(() => {
        // Keyboard focus inside the first-paint tree moves to the full tree that replaces it.
        focusBack.current = !!area.current?.contains(document.activeElement);
        setTree(mod);
      }),
    );
  }, [area]);

  useEffect(() => {
    if (tree) return;
    return afterIdle(want, IDLE_AFTER_MS, IDLE_TIMEOUT_MS);
  }, [tree, want]);

  useEffect(() => {
    if (!tree || !focusBack.current) return;
    focusBack.current = false;
    area.current?.querySelector<HTMLElement>('[role="tree"]')?.focus();
  }, [tree, area]);

  return { tree, want };
}
