import { BOARD_MESSAGES, type Board } from "@hangar/contract";
import { ActionIcon, Badge, Highlight, Menu, TextInput, Tooltip } from "@mantine/core";
import {
  IconCheck,
  IconChevronRight,
  IconCircleCheckFilled,
  IconDots,
  IconFolder,
  IconPlus,
  IconX,
} from "@tabler/icons-react";
import { type KeyboardEvent, type MouseEvent, type SyntheticEvent, useEffect, useRef, useState } from "react";
import type { CursorProps, DragPreviewProps, NodeRendererProps, RowRendererProps } from "react-arborist";
import { BoardMenuItems, BoardTreeIcon, boardTreeClasses as classes } from "../board";
import { type BoardMenuAction, type TreeItem, useBoardTreeContext } from "./board-tree-context";

/** Input focus after it mounts (spec 01 §9: about 100 ms, once the row and any menu have settled). */
export const INPUT_FOCUS_DELAY_MS = 100;

// Events inside a row's own controls must not reach the row (click = open the board) nor the tree
// (its key handler would eat Space and arrows). React events bubble through portals too (the menu).
const stop = (event: SyntheticEvent) => event.stopPropagation();

function useDelayedFocus(select = false) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const timer = setTimeout(() => {
      ref.current?.focus();
      if (select) ref.current?.select();
    }, INPUT_FOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [select]);
  return ref;
}

/** The row element: the treeitem, its click (select, open) and the keyboard shortcuts on it. */
export function BoardRow({ node, attrs, innerRef, children }: RowRendererProps<TreeItem>) {
  const ctx = useBoardTreeContext();
  const board = node.data.board;
  const active = !!board && board.id === ctx.activeId;
  const navigate = ctx.mode === "navigate";

  // A plain click opens the board (or, in a dialog, chooses it); Ctrl/Cmd and Shift build the board
  // selection for bulk actions. Opening does not select, so the selection only ever holds boards the
  // user picked on purpose (spec 01 §4 bulk mode).
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (!board) return;
    if (!navigate) return node.handleClick(event);
    if (event.metaKey || event.ctrlKey || event.shiftKey) return node.handleClick(event);
    if (!node.tree.hasNoSelection) node.tree.deselectAll();
    node.focus();
    node.activate();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!board || event.target !== event.currentTarget) return;
    if (event.key === "Enter") {
      event.preventDefault();
      event.stopPropagation();
      if (!navigate) node.select();
      node.activate();
    } else if (event.key === "Escape" && !node.tree.hasNoSelection) {
      node.tree.deselectAll();
    } else if (navigate && ctx.canEdit) {
      if (event.key === "F2") {
        event.preventDefault();
        node.edit();
      } else if (event.key === "Delete") {
        event.preventDefault();
        ctx.onMenuAction("delete", board);
      } else if (event.key === "ContextMenu" || (event.key === "F10" && event.shiftKey)) {
        event.preventDefault();
        ctx.setMenuFor(board.id);
      }
    }
  };

  return (
    <div
      {...attrs}
      // The row is as wide as the tree (react-arborist makes it max-content): a long name ends in an
      // ellipsis and the row's actions stay in view, instead of the tree scrolling sideways (a phone).
      style={{ ...attrs.style, minWidth: 0 }}
      role="treeitem"
      // react-arborist moves focus between rows (roving focus); the tree itself is the tab stop.
      tabIndex={-1}
      ref={innerRef}
      className={classes.row}
      aria-label={board ? board.name : BOARD_MESSAGES.placeholder}
      aria-selected={board ? active || node.isSelected : undefined}
      aria-current={active && navigate ? "page" : undefined}
      aria-expanded={node.children?.some((c) => c.data.board) ? node.isOpen : undefined}
      aria-keyshortcuts={ctx.canEdit && navigate ? "Enter F2 Delete Shift+F10" : "Enter"}
      data-board-id={board?.id}
      onFocus={stop}
      onClick={onClick}
      onKeyDown={onKeyDown}
    >
      {children}
    </div>
  );
}

/** What a row shows: toggle, folder, name (or the rename input) and, for editors, the actions. */
export function BoardNode({ node, style, dragHandle, preview }: NodeRendererProps<TreeItem>) {
  const ctx = useBoardTreeContext();
  const board = node.data.board;
  if (!board) return <AddBoardRow style={style} />;

  const hasChildren = !!node.children?.some((c) => c.data.board);
  const active = board.id === ctx.activeId;
  const showActions = ctx.canEdit && ctx.mode === "navigate" && !preview && !node.isEditing;
  const selected = ctx.mode === "navigate" && node.isSelected;
  // A picked board (bulk selection) shows a check instead of its folder.
  const smart = board.kind === "smart";

  return (
    <div
      // Not draggable while its name is being edited (text selection in the input must work).
      ref={node.isEditing ? undefined : dragHandle}
      style={style}
      className={classes.node}
      data-active={active || undefined}
      data-selected={selected || undefined}
      data-drop-target={node.willReceiveDrop || undefined}
      data-dragging={node.isDragging || undefined}
    >
      {hasChildren ? (
        <button
          type="button"
          tabIndex={-1}
          className={classes.toggle}
          data-open={node.isOpen || undefined}
          aria-label={node.isOpen ? `Collapse ${board.name}` : `Expand ${board.name}`}
          onClick={(event) => {
            event.stopPropagation();
            node.toggle();
          }}
        >
          <IconChevronRight size={14} stroke={2} />
        </button>
      ) : (
        <span className={classes.toggle} aria-hidden />
      )}
      {selected ? (
        <IconCircleCheckFilled size={16} stroke={1.7} className={classes.icon} aria-hidden />
      ) : (
        <BoardTreeIcon smart={smart} open={node.isOpen && hasChildren} className={classes.icon} />
      )}
      {node.isEditing ? (
        <RenameInput
          initial={board.name}
          onDone={(name) => {
            if (name === null) node.reset();
            else {
              ctx.onRename(board.id, name);
              node.submit(name);
            }
          }}
        />
      ) : (
        <Highlight
          component="span"
          className={classes.name}
          highlight={ctx.highlight}
          size="sm"
          fw="inherit"
          c="inherit"
          title={board.name}
          onDoubleClick={
            showActions
              ? (event) => {
                  event.stopPropagation();
                  node.edit();
                }
              : undefined
          }
        >
          {board.name}
        </Highlight>
      )}
      {showActions && <NodeActions board={board} />}
    </div>
  );
}

function NodeActions({ board }: { board: Board }) {
  const ctx = useBoardTreeContext();
  const open = ctx.menuFor === board.id;
  const run = (action: BoardMenuAction) => {
    ctx.setMenuFor(null);
    ctx.onMenuAction(action, board);
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: only stops bubbling; the buttons inside are the controls
    <div className={classes.actions} data-open={open || undefined} onClick={stop} onKeyDown={stop}>
      {/* A smart board holds no sub-boards (the server answers 409). */}
      {board.kind !== "smart" && (
        <Tooltip label="Create Sub-Board" openDelay={400} withinPortal>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            aria-label="Create Sub-Board"
            onClick={() => ctx.onAddSub(board.id)}
          >
            <IconPlus size={14} />
          </ActionIcon>
        </Tooltip>
      )}
      <Menu
        opened={open}
        onChange={(next) => ctx.setMenuFor(next ? board.id : null)}
        position="bottom-end"
        withinPortal
        shadow="md"
        width={180}
        returnFocus
      >
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="sm" aria-label="Board actions">
            <IconDots size={14} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown onClick={stop} onKeyDown={stop}>
          <BoardMenuItems onAction={run} smart={board.kind === "smart"} />
        </Menu.Dropdown>
      </Menu>
    </div>
  );
}

/** Inline rename: Enter or blur saves; Escape, an empty or an unchanged name cancels (spec 01 §4). */
function RenameInput({ initial, onDone }: { initial: string; onDone: (name: string | null) => void }) {
  const [value, setValue] = useState(initial);
  const ref = useDelayedFocus(true);
  const done = useRef(false);
  const finish = (save: boolean) => {
    if (done.current) return;
    done.current = true;
    const name = value.trim();
    onDone(save && name && name !== initial ? name : null);
  };
  return (
    <TextInput
      ref={ref}
      size="xs"
      flex={1}
      miw={0}
      aria-label="Board name"
      value={value}
      onChange={(event) => setValue(event.currentTarget.value)}
      onClick={stop}
      onMouseDown={stop}
      onKeyDown={(event) => {
        event.stopPropagation();
        if (event.key === "Enter") finish(true);
        if (event.key === "Escape") finish(false);
      }}
      onBlur={() => finish(true)}
      maxLength={200}
    />
  );
}

/**
 * The inline row for a new board (at root or under a parent): saves on Enter or the check button;
 * closes on cancel, Escape, or blur while empty; a whitespace-only name cancels (spec 01 §4).
 */
function AddBoardRow({ style }: { style: NodeRendererProps<TreeItem>["style"] }) {
  const ctx = useBoardTreeContext();
  const [value, setValue] = useState("");
  const ref = useDelayedFocus();
  const save = () => {
    const name = value.trim();
    if (name) ctx.onAddSave(name);
    else ctx.onAddCancel();
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: only stops bubbling to the row and the tree
    <div
      style={style}
      className={classes.node}
      data-placeholder
      data-testid="add-board-row"
      onClick={stop}
      onMouseDown={stop}
      onKeyDown={stop}
    >
      <span className={classes.toggle} aria-hidden />
      <IconFolder size={16} stroke={1.7} className={classes.icon} aria-hidden />
      <TextInput
        ref={ref}
        size="xs"
        flex={1}
        miw={0}
        placeholder={BOARD_MESSAGES.placeholder}
        aria-label="New board name"
        value={value}
        maxLength={200}
        onChange={(event) => setValue(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") save();
          if (event.key === "Escape") ctx.onAddCancel();
        }}
        onBlur={(event) => {
          // Moving to the row's own buttons is not leaving it.
          if (event.relatedTarget && event.currentTarget.parentElement?.parentElement?.contains(event.relatedTarget))
            return;
          if (!value.trim()) ctx.onAddCancel();
        }}
      />
      <ActionIcon size="sm" variant="subtle" color="green" aria-label="Save board" onClick={save}>
        <IconCheck size={14} />
      </ActionIcon>
      <ActionIcon size="sm" variant="subtle" color="gray" aria-label="Cancel" onClick={ctx.onAddCancel}>
        <IconX size={14} />
      </ActionIcon>
    </div>
  );
}

/** The drop line between rows. */
export function BoardCursor({ top, left }: CursorProps) {
  return (
    <div className={classes.cursor} style={{ top: top - 3, left, right: 4 }}>
      <div className={classes.cursorDot} />
      <div className={classes.cursorLine} />
    </div>
  );
}

/** What follows the pointer while dragging: the board's name and, for several, how many. */
export function BoardDragPreview({ offset, mouse, id, dragIds, isDragging }: DragPreviewProps) {
  const ctx = useBoardTreeContext();
  if (!isDragging || !id) return null;
  const at = mouse ?? offset;
  if (!at) return null;
  return (
    <div className={classes.preview}>
      <div className={classes.previewChip} style={{ transform: `translate(${at.x + 14}px, ${at.y + 14}px)` }}>
        <IconFolder size={14} stroke={1.7} aria-hidden />
        {ctx.nameOf(id)}
        {dragIds.length > 1 && (
          <Badge size="xs" circle>
            {dragIds.length}
          </Badge>
        )}
      </div>
    </div>
  );
}
