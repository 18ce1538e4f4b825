// The boards feature's public surface: what the shell, the router and other features may import.
export { boardKeys, useBoardTree } from "./api";
export { BoardsPanel } from "./components/boards-panel";
export { BoardSelectDialog, type Destination } from "./dialogs/board-select-dialog";
export { boardRoute } from "./routes";
export { indexTree } from "./tree-utils";
