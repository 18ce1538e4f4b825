import type { Board } from "@hangar/contract";
import { useDebouncedValue } from "@mantine/hooks";
import { useEffect, useState } from "react";
import { filterTreeChunked } from "./tree-utils";

export interface TreeFilter {
  /** The term the result is for ("" when not filtering). */
  term: string;
  /** The filtered tree, or the full one when not filtering. */
  boards: readonly Board[];
  matches: number;
  /** A newer term is still being worked through. */
  pending: boolean;
}

/**
 * Filters the tree by name as the user types. The work runs in chunks that yield to the interface
 * (tree-utils filterTreeChunked), and a newer term aborts the older run, so 10,000 boards stay smooth.
 */
export function useTreeFilter(boards: readonly Board[] | undefined, input: string): TreeFilter {
  const [debounced] = useDebouncedValue(input.trim(), 120);
  const [result, setResult] = useState<{ term: string; source: readonly Board[]; boards: Board[]; matches: number }>();

  useEffect(() => {
    if (!debounced || !boards) return;
    const controller = new AbortController();
    filterTreeChunked(boards, debounced, controller.signal).then((found) => {
      if (found) setResult({ term: debounced, source: boards, boards: found.tree, matches: found.matches });
    });
    return () => controller.abort();
  }, [boards, debounced]);

  const all = boards ?? [];
  if (!input.trim()) return { term: "", boards: all, matches: 0, pending: false };
  const fresh = result && result.term === debounced && result.source === boards;
  if (!result) return { term: "", boards: all, matches: 0, pending: true };
  // Until the newest run lands, keep showing the last result (no flash back to the full tree).
  return {
    term: result.term,
    boards: result.boards,
    matches: result.matches,
    pending: !fresh || input.trim() !== debounced,
  };
}
