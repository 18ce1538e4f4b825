import { useCallback, useEffect, useRef, useState } from "react";
import { afterIdle } from "../../../lib/after-idle";
import { whenReleased } from "../../../lib/when-released";

type FullTree = typeof import("./board-tree");

/** After the page has settled, the full tree loads on its own (when the browser is idle). */
const IDLE_AFTER_MS = 3000;
const IDLE_TIMEOUT_MS = 2000;

let loaded: FullTree | null = null;
let loading: Promise<FullTree> | null = null;

/** Fetches react-arborist's tree (its drag-and-drop stack included) once per page. */
function loadFullTree(): Promise<FullTree> {
  loading ??= import("./board-tree").then((mod) => {
    loaded = mod;
    return mod;
  });
  return loading;
}

/**
 * The boards panel's tree: null while the first-paint tree shows, then react-arborist's module.
 * `want()` asks for it (pointer over the panel, keyboard focus, an action only it does); it also
 * comes on its own once the page is idle, a few seconds after the panel mounted.
 */
export function useFullTree(area: React.RefObject<HTMLElement | null>) {
  const [tree, setTree] = useState<FullTree | null>(loaded);
  const focusBack = useRef(false);

  const want = useCallback(() => {
    if (loaded) {
      setTree(loaded);
      return;
    }
    // Never between a press and its click: the row under the pointer would be replaced.
    void loadFullTree().then((mod) =>
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
