import { useSyncExternalStore } from "react";

/**
 * Client-only state tied to the current workspace: which workspace is open, the current board and the
 * selected assets and boards. Server data (assets, boards) stays in TanStack Query; switching workspace
 * resets this store and drops the old workspace's asset and board queries (see useSelectWorkspace).
 */
export interface SelectionState {
  workspaceId: string | null;
  currentBoardId: string | null;
  selectedAssetIds: readonly string[];
  /** Where a Shift-click range starts: the asset last clicked without Shift (null: none yet). */
  assetAnchorId: string | null;
  selectedBoardIds: readonly string[];
}

const LAST_WORKSPACE_KEY = "hangar:last-workspace";

function readLastWorkspace(): string | null {
  try {
    return localStorage.getItem(LAST_WORKSPACE_KEY);
  } catch {
    return null;
  }
}

const EMPTY: SelectionState = {
  workspaceId: null,
  currentBoardId: null,
  selectedAssetIds: [],
  assetAnchorId: null,
  selectedBoardIds: [],
};

let state: SelectionState = { ...EMPTY, workspaceId: readLastWorkspace() };
const listeners = new Set<() => void>();

function setState(patch: Partial<SelectionState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

const toggle = (ids: readonly string[], id: string) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]);

export const selectionStore = {
  getState: (): SelectionState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Makes `id` the current workspace; a different workspace clears the board and every selection. */
  setWorkspace(id: string): boolean {
    if (state.workspaceId === id) return false;
    try {
      localStorage.setItem(LAST_WORKSPACE_KEY, id);
    } catch {
      // storage may be unavailable (private mode); the last workspace is only a convenience
    }
    setState({ ...EMPTY, workspaceId: id });
    return true;
  },
  setCurrentBoard(boardId: string | null): void {
    setState({ currentBoardId: boardId, selectedAssetIds: [], assetAnchorId: null });
  },
  toggleAsset(id: string): void {
    setState({ selectedAssetIds: toggle(state.selectedAssetIds, id), assetAnchorId: id });
  },
  toggleBoard(id: string): void {
    setState({ selectedBoardIds: toggle(state.selectedBoardIds, id) });
  },
  /** Replaces the asset selection; `anchor` is where the next Shift-click range starts. */
  setSelectedAssets(ids: readonly string[], anchor: string | null = null): void {
    setState({ selectedAssetIds: ids, assetAnchorId: anchor });
  },
  /** The boards picked in the tree (Ctrl/Cmd-click); board bulk mode applies when more than one is. */
  setSelectedBoards(ids: readonly string[]): void {
    const same = ids.length === state.selectedBoardIds.length && ids.every((id, i) => state.selectedBoardIds[i] === id);
    if (!same) setState({ selectedBoardIds: ids });
  },
  clearSelection(): void {
    setState({ selectedAssetIds: [], assetAnchorId: null, selectedBoardIds: [] });
  },
  /** Sign-out: forget everything, including the remembered workspace. */
  reset(): void {
    try {
      localStorage.removeItem(LAST_WORKSPACE_KEY);
    } catch {
      // see setWorkspace
    }
    setState({ ...EMPTY });
  },
};

export function useSelection<T>(selector: (s: SelectionState) => T): T {
  return useSyncExternalStore(selectionStore.subscribe, () => selector(selectionStore.getState()));
}
