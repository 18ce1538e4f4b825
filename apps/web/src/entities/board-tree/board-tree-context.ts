import type { Board } from "@hangar/contract";
import { createContext, useContext } from "react";
import type { BoardMenuAction } from "../board";

/** The row id of the inline "add board" row; never a board id (those are UUIDs). */
export const ADD_ROW_ID = "__add-board__";

/** One row of the tree: a board, or the inline add row (board null, no children: nothing drops into it). */
export interface TreeItem {
  id: string;
  name: string;
  board: Board | null;
  children: TreeItem[] | null;
}

export type { BoardMenuAction };

/** What the row renderers need beyond react-arborist's node (they are components the tree mounts). */
export interface BoardTreeContextValue {
  mode: "navigate" | "select";
  /** Editors see "Create Sub-Board" and the actions menu on each row (Rename, Move, Download, Delete). */
  canEdit: boolean;
  /** The highlighted board: the current one (navigate) or the chosen destination (select). */
  activeId: string | null;
  /** The filter text, highlighted in names. */
  highlight: string;
  /** id → name, for the drag preview. */
  nameOf: (id: string) => string;
  /** The row whose actions menu is open (also opened from the keyboard). */
  menuFor: string | null;
  setMenuFor: (id: string | null) => void;
  onAddSub: (parentId: string) => void;
  onRename: (id: string, name: string) => void;
  onMenuAction: (action: BoardMenuAction, board: Board) => void;
  onAddSave: (name: string) => void;
  onAddCancel: () => void;
}

export const BoardTreeContext = createContext<BoardTreeContextValue | null>(null);

export function useBoardTreeContext(): BoardTreeContextValue {
  const value = useContext(BoardTreeContext);
  if (!value) throw new Error("Board tree rows rendered outside <BoardTree>");
  return value;
}
