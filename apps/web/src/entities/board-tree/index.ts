// The full boards tree (react-arborist: drag and drop, inline rename, menus) and the board picker
// built on it. Heavy, so kept apart from entities/board: the picker ships with the dialogs that use
// it, and the navbar loads the tree itself through `loadBoardTree` once the page has settled.
export { BoardSelectDialog, type Destination } from "./board-select-dialog";

/** The full tree's module, fetched on demand (its own chunk). */
export const loadBoardTree = () => import("./board-tree");
