import { type Board, TREE_INDENT_PX } from "@hangar/contract";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { type MoveHandler, type NodeApi, Tree, type TreeApi } from "react-arborist";
import {
  boardTreeClasses as classes,
  indexTree,
  readOpenState,
  TREE_PADDING_BOTTOM,
  TREE_PADDING_TOP,
  TREE_ROW_HEIGHT,
  topmostInTreeOrder,
  writeOpenState,
} from "../board";
import { BoardCursor, BoardDragPreview, BoardNode, BoardRow } from "./board-node";
import {
  ADD_ROW_ID,
  type BoardMenuAction,
  BoardTreeContext,
  type BoardTreeContextValue,
  type TreeItem,
} from "./board-tree-context";

export { TREE_ROW_HEIGHT };

/** Re-expansion of the drop target after the tree data changed (spec 01 §9: about 10 ms). */
const REEXPAND_DELAY_MS = 10;

/** Where the inline add row goes: undefined none, null the root level, else under that board. */
export type AddRowAt = string | null | undefined;

function toItems(boards: readonly Board[], addAt: AddRowAt): TreeItem[] {
  const addRow: TreeItem = { id: ADD_ROW_ID, name: "", board: null, children: null };
  const convert = (list: readonly Board[], parentId: string | null): TreeItem[] => {
    const items = list.map(
      (board): TreeItem => ({
        id: board.id,
        name: board.name,
        board,
        // Every board is a folder (it can take a drop inside), even without sub-boards yet.
        children: convert(board.children ?? [], board.id),
      }),
    );
    if (addAt !== undefined && addAt === parentId) items.push(addRow);
    return items;
  };
  return convert(boards, null);
}

const isAddRow = (item: TreeItem) => item.board === null;

export interface BoardTreeProps {
  boards: readonly Board[];
  mode: "navigate" | "select";
  /** Keep which boards are expanded in local storage under this key (the navbar: per workspace). */
  persistKey?: string;
  width: number;
  height: number;
  /** Editors: row actions, and (unless filtered) drag and drop. */
  canEdit?: boolean;
  /** A filtered tree: every row open, no drag and drop, the term highlighted. */
  filterTerm?: string;
  activeId: string | null;
  /** Expand the ancestors of this board and scroll it into view (the current board). */
  revealId?: string | null;
  addAt?: AddRowAt;
  /** Board selection the store holds; an empty one clears the tree's own. */
  selectedIds?: readonly string[];
  onActivate: (board: Board) => void;
  onSelectionChange?: (ids: string[]) => void;
  onDrop?: (ids: string[], parentId: string | null, index: number | null) => void;
  onAddSub?: (parentId: string) => void;
  onAddSave?: (name: string) => void;
  onAddCancel?: () => void;
  onRename?: (id: string, name: string) => void;
  onMenuAction?: (action: Exclude<BoardMenuAction, "rename">, board: Board) => void;
  "aria-label"?: string;
  /** Handed over by the first-paint tree: a row menu asked for, boards Ctrl/Shift-clicked before this tree arrived. */
  initialMenuFor?: string | null;
  initialSelectedIds?: readonly string[];
}

const noop = () => {};

/**
 * The boards tree on react-arborist: virtualised rows of 32 px, 18 px indent, drag and drop for editors,
 * keyboard navigation (arrows, Home/End, Enter opens, F2 renames, Delete, Shift+F10 for the menu).
 * In "select" mode (destination dialogs) a click reports the board instead of navigating.
 */
export function BoardTree(props: BoardTreeProps) {
  const {
    boards,
    mode,
    width,
    height,
    canEdit = false,
    filterTerm = "",
    activeId,
    revealId,
    addAt,
    selectedIds,
  } = props;
  const treeRef = useRef<TreeApi<TreeItem> | undefined>(undefined);
  const filtered = !!filterTerm.trim();
  const draggable = canEdit && mode === "navigate" && !filtered;
  const [menuFor, setMenuFor] = useState<string | null>(null);

  // Callbacks through a ref: the tree rebuilds every node when a prop changes, so its props stay stable.
  const latest = useRef(props);
  latest.current = props;

  const items = useMemo(() => toItems(boards, addAt), [boards, addAt]);
  const lookup = useMemo(() => indexTree(boards), [boards]);
  const lookupRef = useRef(lookup);
  lookupRef.current = lookup;

  // Open folders survive the switch between the full and the filtered tree (two tree instances),
  // and, with a persistKey, navigation and reloads (local storage).
  const openState = useRef<Record<string, boolean> | null>(null);
  openState.current ??= readOpenState(props.persistKey);
  const onToggle = useCallback((id: string) => {
    const tree = treeRef.current;
    if (!tree || tree.props.openByDefault || !openState.current) return;
    openState.current[id] = tree.isOpen(id);
    writeOpenState(latest.current.persistKey, openState.current);
  }, []);

  const onActivate = useCallback((node: NodeApi<TreeItem>) => {
    if (node.data.board) latest.current.onActivate(node.data.board);
  }, []);

  const onSelect = useCallback((nodes: NodeApi<TreeItem>[]) => {
    latest.current.onSelectionChange?.(nodes.filter((n) => n.data.board).map((n) => n.id));
  }, []);

  const onMove = useCallback<MoveHandler<TreeItem>>(({ dragIds, parentId, parentNode, index }) => {
    const tree = treeRef.current;
    if (!tree) return;
    const ids = topmostInTreeOrder(lookupRef.current, dragIds);
    if (!ids.length) return;
    // react-arborist turns "dropped onto a board" into index 0; its hover state still says null.
    const onto = tree.state.dnd.index === null;
    let at: number | null = null;
    if (!onto) {
      // Its index counts the dragged rows and the add row; the server's does not.
      const siblings = (parentNode ?? tree.root).children ?? [];
      const dragged = new Set(dragIds);
      at = siblings.slice(0, index).filter((n) => !dragged.has(n.id) && !isAddRow(n.data)).length;
    }
    latest.current.onDrop?.(ids, parentId, at);
    if (parentId) {
      setTimeout(() => {
        treeRef.current?.openParents(parentId);
        treeRef.current?.open(parentId);
      }, REEXPAND_DELAY_MS);
    }
  }, []);

  const disableDrop = useCallback(
    ({ parentNode, dragNodes }: { parentNode: NodeApi<TreeItem>; dragNodes: NodeApi<TreeItem>[] }) =>
      (!parentNode.isRoot && isAddRow(parentNode.data)) || dragNodes.some((n) => isAddRow(n.data)),
    [],
  );
  const disableDrag = useCallback((item: TreeItem) => !draggable || isAddRow(item), [draggable]);

  // The current board: its ancestors open and the row scrolled into view, once per board.
  const revealed = useRef<string | null>(null);
  useEffect(() => {
    if (!revealId || revealed.current === revealId || !lookup.has(revealId)) return;
    revealed.current = revealId;
    treeRef.current?.scrollTo(revealId);
  }, [revealId, lookup]);

  // The add row: open its parent and bring it into view.
  useEffect(() => {
    if (addAt === undefined) return;
    const tree = treeRef.current;
    if (!tree) return;
    if (addAt) {
      tree.openParents(addAt);
      tree.open(addAt);
    }
    tree.scrollTo(ADD_ROW_ID);
  }, [addAt]);

  // What the first-paint tree was asked before this one arrived: the boards picked for bulk actions,
  // a row's menu. The menu opens once mounted, as a click opens it: it then keeps where the focus
  // was (moved to the same control here), to give it back when it closes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only once, at the hand-over
  useEffect(() => {
    const tree = treeRef.current;
    for (const id of props.initialSelectedIds ?? []) tree?.selectMulti(id);
    if (props.initialMenuFor) setMenuFor(props.initialMenuFor);
  }, []);

  // The store's selection was cleared (after a move or delete): clear the tree's too.
  useEffect(() => {
    const tree = treeRef.current;
    if (tree && selectedIds && selectedIds.length === 0 && tree.selectedIds.size > 0) tree.deselectAll();
  }, [selectedIds]);

  const context = useMemo<BoardTreeContextValue>(
    () => ({
      mode,
      canEdit: canEdit && mode === "navigate",
      activeId,
      highlight: filterTerm.trim(),
      nameOf: (id) => lookupRef.current.get(id)?.board.name ?? "",
      menuFor,
      setMenuFor,
      onAddSub: (parentId) => latest.current.onAddSub?.(parentId),
      onRename: (id, name) => latest.current.onRename?.(id, name),
      onMenuAction: (action, board) => {
        if (action === "rename") {
          // After the menu has closed and handed focus back.
          setTimeout(() => treeRef.current?.edit(board.id), 0);
        } else latest.current.onMenuAction?.(action, board);
      },
      onAddSave: (name) => latest.current.onAddSave?.(name),
      onAddCancel: () => latest.current.onAddCancel?.(),
    }),
    [mode, canEdit, activeId, filterTerm, menuFor],
  );

  return (
    <BoardTreeContext.Provider value={context}>
      <Tree<TreeItem>
        // The filtered tree is its own instance: all open, while the full tree keeps its folders.
        key={filtered ? "filtered" : "full"}
        ref={treeRef}
        data={items}
        width={width}
        height={height}
        rowHeight={TREE_ROW_HEIGHT}
        indent={TREE_INDENT_PX}
        overscanCount={8}
        // Room for the drop line above the first row and below the last.
        paddingTop={TREE_PADDING_TOP}
        paddingBottom={TREE_PADDING_BOTTOM}
        openByDefault={filtered}
        initialOpenState={filtered ? undefined : (openState.current ?? undefined)}
        disableMultiSelection={mode === "select"}
        disableSelect={isAddRow}
        disableEdit={!canEdit}
        disableDrag={disableDrag}
        disableDrop={disableDrop}
        onMove={draggable ? onMove : noop}
        onActivate={onActivate}
        onSelect={onSelect}
        onToggle={onToggle}
        renderRow={BoardRow}
        renderCursor={BoardCursor}
        renderDragPreview={BoardDragPreview}
        className={classes.tree}
        aria-label={props["aria-label"] ?? "Boards"}
      >
        {BoardNode}
      </Tree>
    </BoardTreeContext.Provider>
  );
}
