// Which boards are open, kept in local storage per workspace: shared by the first-paint tree and
// react-arborist's, so the hand-over between them shows the same folders open.

export const TREE_ROW_HEIGHT = 32;
/** Room for the drop line above the first row and below the last (both trees keep it). */
export const TREE_PADDING_TOP = 4;
export const TREE_PADDING_BOTTOM = 8;

export function readOpenState(key: string | undefined): Record<string, boolean> {
  if (!key) return {};
  try {
    const parsed = JSON.parse(localStorage.getItem(key) ?? "{}") as unknown;
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, boolean>) : {};
  } catch {
    return {};
  }
}

export function writeOpenState(key: string | undefined, state: Record<string, boolean>) {
  if (!key) return;
  // Only open folders are worth keeping (a closed one is the default), so the entry stays small.
  const open = Object.fromEntries(Object.entries(state).filter(([, isOpen]) => isOpen));
  try {
    localStorage.setItem(key, JSON.stringify(open));
  } catch {
    // Storage full or disabled: the tree still works, it just forgets.
  }
}
