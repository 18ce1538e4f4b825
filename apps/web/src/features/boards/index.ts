// The boards feature's public surface: the navbar's boards panel and the board page's route. The
// tree's queries and helpers are in entities/board, the full tree and the board picker in entities/board-tree.
export { BoardsPanel } from "./components/boards-panel";
export { boardRoute } from "./routes";
