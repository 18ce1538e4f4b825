import { BOARD_MESSAGES, type Board, TREE_INDENT_PX } from "@hangar/contract";
import { ActionIcon } from "@mantine/core";
import { IconChevronRight, IconDots, IconPlus } from "@tabler/icons-react";
import { type MouseEvent, useEffect, useMemo, useRef, useState } from "react";
import {
  BoardTreeIcon,
  boardTreeClasses as classes,
  indexTree,
  readOpenState,
  TREE_PADDING_BOTTOM,
  TREE_PADDING_TOP,
  TREE_ROW_HEIGHT,
  writeOpenState,
} from "../../../entities/board";
import { ancestorIds, type LightRow, lightRows } from "./light-rows";

/** What Mantine's Highlight (a Text of size sm) sets on the name in the full tree. */
const LIGHT_NAME_STYLE = { fontSize: "var(--mantine-font-size-sm)", lineHeight: "var(--mantine-line-height-sm)" };

/** Rows drawn beyond the visible ones, as react-arborist's overscan. */
const OVERSCAN = 8;

export interface LightTreeProps {
  boards: readonly Board[];
  /** A filtered tree: every row open. */
  filtered: boolean;
  persistKey: string;
  width: number;
  height: number;
  canEdit: boolean;
  activeId: string | null;
  revealId: string | null;
  onActivate: (board: Board) => void;
  onAddSub: (parentId: string) => void;
  /** Something only the full tree can do (a row's menu, Ctrl/Shift-click selection): hand it over. */
  onHandOver: (ask: { menuFor?: string; select?: string }) => void;
}

/**
 * The boards tree as it first paints: the same rows, roles, labels and looks as the react-arborist
 * tree (`board-tree.tsx`), without its drag-and-drop stack, so a workspace's first load does not
 * carry it (issue 11). It opens boards, expands and collapses folders (kept in the same storage)
 * and starts "Create Sub-Board"; the panel swaps in the full tree on the first interaction that
 * needs it (pointer, keyboard focus) or once the page is idle, and hands over what was asked here.
 */
export function BoardTreeLight(props: LightTreeProps) {
  const { boards, filtered, persistKey, width, height, canEdit, activeId, revealId } = props;
  const [openState, setOpenState] = useState(() => readOpenState(persistKey));
  const [scrollTop, setScrollTop] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);

  // The current board's ancestors show open, as the full tree's scrollTo opens them.
  const revealed = useMemo(() => ancestorIds(indexTree(boards), revealId), [boards, revealId]);

  const rows = useMemo(
    () => lightRows(boards, (id) => !!openState[id] || revealed.has(id), filtered),
    [boards, filtered, openState, revealed],
  );

  // The current board scrolled into view once, as the full tree does.
  const revealIndex = revealId ? rows.findIndex((r) => r.board.id === revealId) : -1;
  useEffect(() => {
    const list = listRef.current;
    if (!list || revealIndex < 0) return;
    const top = revealIndex * TREE_ROW_HEIGHT;
    if (top < list.scrollTop || top + TREE_ROW_HEIGHT > list.scrollTop + height) {
      list.scrollTop = Math.max(0, top - height / 2);
    }
  }, [revealIndex, height]);

  const toggle = (id: string) => {
    setOpenState((state) => {
      const next = { ...state, [id]: !(state[id] || revealed.has(id)) };
      if (!filtered) writeOpenState(persistKey, next);
      return next;
    });
  };

  const first = Math.max(0, Math.floor(scrollTop / TREE_ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / TREE_ROW_HEIGHT) + OVERSCAN);

  return (
    <div
      role="tree"
      aria-label="Boards"
      aria-multiselectable
      tabIndex={0}
      style={{ height, width, minHeight: 0, minWidth: 0 }}
    >
      <div
        ref={listRef}
        className={classes.tree}
        style={{ position: "relative", height, width, overflow: "auto", willChange: "transform", direction: "ltr" }}
        onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
      >
        <div style={{ height: rows.length * TREE_ROW_HEIGHT + TREE_PADDING_TOP + TREE_PADDING_BOTTOM, width: "100%" }}>
          {rows.slice(first, last).map((row, i) => (
            <LightTreeRow
              key={row.board.id}
              row={row}
              top={(first + i) * TREE_ROW_HEIGHT + TREE_PADDING_TOP}
              active={row.board.id === activeId}
              canEdit={canEdit}
              onToggle={toggle}
              props={props}
            />
          ))}
        </div>
      </div>
    </div>
  );
}

function LightTreeRow(p: {
  row: LightRow;
  top: number;
  active: boolean;
  canEdit: boolean;
  onToggle: (id: string) => void;
  props: LightTreeProps;
}) {
  const { row, top, active, canEdit, onToggle, props } = p;
  const { board, hasChildren, open } = row;
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey) return props.onHandOver({ select: board.id });
    props.onActivate(board);
  };
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: keys go to the full tree, which takes over on focus
    <div
      role="treeitem"
      aria-level={row.level + 1}
      aria-selected={active}
      aria-expanded={hasChildren ? open : undefined}
      aria-current={active ? "page" : undefined}
      aria-label={board.name || BOARD_MESSAGES.placeholder}
      aria-keyshortcuts={canEdit ? "Enter F2 Delete Shift+F10" : "Enter"}
      tabIndex={-1}
      className={classes.row}
      data-board-id={board.id}
      style={{ position: "absolute", left: 0, top, height: TREE_ROW_HEIGHT, width: "100%" }}
      onClick={onClick}
    >
      <div
        className={classes.node}
        style={{ paddingLeft: TREE_INDENT_PX * row.level }}
        data-active={active || undefined}
      >
        {hasChildren ? (
          <button
            type="button"
            tabIndex={-1}
            className={classes.toggle}
            data-open={open || undefined}
            aria-label={open ? `Collapse ${board.name}` : `Expand ${board.name}`}
            onClick={(event) => {
              event.stopPropagation();
              onToggle(board.id);
            }}
          >
            <IconChevronRight size={14} stroke={2} />
          </button>
        ) : (
          <span className={classes.toggle} aria-hidden />
        )}
        <BoardTreeIcon smart={board.kind === "smart"} open={open && hasChildren} className={classes.icon} />
        <span className={classes.name} title={board.name} style={LIGHT_NAME_STYLE}>
          {board.name}
        </span>
        {canEdit && (
          // biome-ignore lint/a11y/noStaticElementInteractions: only stops bubbling; the buttons inside are the controls
          <div
            className={classes.actions}
            onClick={(event) => event.stopPropagation()}
            onKeyDown={(event) => event.stopPropagation()}
          >
            {board.kind !== "smart" && (
              <ActionIcon
                variant="subtle"
                color="gray"
                size="sm"
                aria-label="Create Sub-Board"
                onClick={() => props.onAddSub(board.id)}
              >
                <IconPlus size={14} />
              </ActionIcon>
            )}
            <ActionIcon
              variant="subtle"
              color="gray"
              size="sm"
              aria-label="Board actions"
              onClick={() => props.onHandOver({ menuFor: board.id })}
            >
              <IconDots size={14} />
            </ActionIcon>
          </div>
        )}
      </div>
    </div>
  );
}
