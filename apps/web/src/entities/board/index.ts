// The board entity: the tree's queries and mutations with their cache updates, the pure tree helpers,
// the name filter, and what the light and the full tree share (row metrics, open state, styles).
export {
  boardKeys,
  planDrop,
  useBoardAncestors,
  useBoardTree,
  useCreateBoard,
  useDeleteBoards,
  useDropBoards,
  useMoveBoards,
  useRenameBoard,
} from "./api";
export { type BoardMenuAction, BoardMenuItems, BoardTreeIcon } from "./board-menu";
export { default as boardTreeClasses } from "./board-tree.module.css";
export { readOpenState, TREE_PADDING_BOTTOM, TREE_PADDING_TOP, TREE_ROW_HEIGHT, writeOpenState } from "./open-state";
export { isSmart, useCreateSmartBoard, useUpdateSmartFilter } from "./smart-api";
export {
  ancestorIds,
  type BoardLocation,
  indexTree,
  isSelfOrDescendant,
  topmostInTreeOrder,
} from "./tree-utils";
export { useTreeFilter } from "./use-tree-filter";
