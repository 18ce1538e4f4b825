// Board membership: an asset's boards. Add to a board, move to one (or to the root), remove from the
// current one: the dialogs and their calls, used by the grid's menus and by the viewer's boards panel.
export { useRemoveFromBoard } from "./api";
export { AddToBoardDialog, MoveToBoardDialog, RemoveFromBoardDialog } from "./board-membership-dialogs";
