import { BOARD_MESSAGES, type Board, canEdit as canEditRole } from "@hangar/contract";
import { ActionIcon, Alert, Box, Button, CloseButton, Group, Loader, Stack, Text, TextInput } from "@mantine/core";
import { useElementSize } from "@mantine/hooks";
import { IconAlertTriangle, IconFolderOff, IconPlus, IconRefresh, IconSearch } from "@tabler/icons-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useMatch, useNavigate } from "react-router-dom";
import {
  indexTree,
  isSelfOrDescendant,
  planDrop,
  topmostInTreeOrder,
  useBoardTree,
  useCreateBoard,
  useDropBoards,
  useRenameBoard,
  useTreeFilter,
} from "../../../entities/board";
import { selectionStore, useSelection, useWorkspace } from "../../../entities/workspace";
import { isApiError } from "../../../lib/api-client";
import { lazyNamed, WhenOpened } from "../../../lib/deferred";
import { LazyTooltip as Tooltip } from "../../../lib/lazy-tooltip";
import { FileRequestsDialog } from "../../file-requests";
import { RequestReviewDialog } from "../../reviews";
import { ShareButtonDialog } from "../../shares";
import { BoardTreeLight } from "./board-tree-light";
import { BoardsBulkBar } from "./boards-bulk-bar";
import { useFullTree } from "./use-full-tree";

/** Where the inline add row goes: undefined none, null the root level, else under that board. */
type AddRowAt = string | null | undefined;

// The dialogs are fetched the first time one opens: not part of a workspace's first load.
const DeleteBoardsDialog = lazyNamed(() => import("../dialogs/delete-boards-dialog"), "DeleteBoardsDialog");
const MoveBoardsDialog = lazyNamed(() => import("../dialogs/move-boards-dialog"), "MoveBoardsDialog");

import { DownloadBoardDialog } from "../../downloads";

/** The dialog on screen; its boards are kept while it animates out. */
type Pending = { kind: "delete" | "move"; boards: Board[]; open: boolean };

/**
 * The boards panel of the workspace navbar (spec 01 §2): header "Boards" with "Add board", a filter,
 * the bulk bar when several boards are selected, and the tree with its loading, failure and empty states.
 */
export function BoardsPanel({ workspaceId, onNavigate }: { workspaceId: string; onNavigate?: () => void }) {
  const navigate = useNavigate();
  const workspace = useWorkspace(workspaceId);
  const editable = canEditRole(workspace.data?.user_role);
  const tree = useBoardTree(workspaceId);
  const create = useCreateBoard(workspaceId);
  const rename = useRenameBoard(workspaceId);
  const drop = useDropBoards(workspaceId);

  const routeBoardId = useMatch("/w/:workspaceId/b/:boardId/*")?.params.boardId ?? null;
  const currentBoardId = routeBoardId && routeBoardId !== "all" ? routeBoardId : null;
  const selectedIds = useSelection((s) => s.selectedBoardIds);

  const [search, setSearch] = useState("");
  const filter = useTreeFilter(tree.data, search);
  const [addAt, setAddAt] = useState<AddRowAt>(undefined);
  // A board moved through the dialog is shown where it landed; else the current board is.
  // (Until the user opens another board.)
  const [moved, setMoved] = useState<{ id: string; on: string | null } | null>(null);
  const revealId = moved && moved.on === currentBoardId ? moved.id : currentBoardId;
  const [pending, setPending] = useState<Pending>({ kind: "delete", boards: [], open: false });
  // The board whose "Download…" dialog is open (kept while it animates out).
  const [downloading, setDownloading] = useState<Board | null>(null);
  const [sharing, setSharing] = useState<{ boards: Board[]; open: boolean }>({ boards: [], open: false });
  const share = (ids: readonly string[]) =>
    setSharing({ boards: topmostInTreeOrder(lookup, ids).map((id) => lookup.get(id)!.board), open: true });
  const [downloadOpen, setDownloadOpen] = useState(false);
  // The board whose "Request files…" dialog is open (kept while it animates out).
  const [requesting, setRequesting] = useState<{ board: Board | null; open: boolean }>({ board: null, open: false });
  // The board whose "Request review…" dialog is open (kept while it animates out).
  const [reviewing, setReviewing] = useState<{ board: Board | null; open: boolean }>({ board: null, open: false });
  const { ref: areaRef, width, height } = useElementSize();
  // The tree paints without react-arborist's drag and drop; the full tree replaces it when needed.
  const panelRef = useRef<HTMLDivElement>(null);
  const full = useFullTree(panelRef);
  // What was asked of the first-paint tree that only the full one does, handed over when it arrives.
  const [handOver, setHandOver] = useState<{ menuFor?: string; select?: string }>({});
  // Taken once, when the full tree mounts (its effects run before this one): not again on a remount.
  useEffect(() => {
    if (full.tree) setHandOver((h) => (h.menuFor || h.select ? {} : h));
  }, [full.tree]);

  const lookup = useMemo(() => indexTree(tree.data ?? []), [tree.data]);
  const ask = (kind: Pending["kind"], ids: readonly string[]) =>
    setPending({ kind, boards: topmostInTreeOrder(lookup, ids).map((id) => lookup.get(id)!.board), open: true });
  const closeDialog = () => setPending((p) => ({ ...p, open: false }));

  const openBoard = useCallback(
    (board: Board) => {
      // Spec 01 §2: a click clears the selected assets, makes it current and opens its page.
      selectionStore.setSelectedAssets([]);
      navigate(`/w/${workspaceId}/b/${board.id}`);
      onNavigate?.();
    },
    [navigate, workspaceId, onNavigate],
  );

  const startAdd = (parentId: string | null) => {
    setSearch(""); // the new row must be visible where it goes
    setAddAt(parentId);
    full.want(); // the add row is the full tree's (last: a swap now renders with the row asked for)
  };

  const saveAdd = (name: string) => {
    const parentId = addAt ?? null;
    setAddAt(undefined);
    create.mutate({ name, parentId });
  };

  const onDrop = (ids: string[], parentId: string | null, index: number | null) => {
    if (!tree.data) return;
    const plan = planDrop(tree.data, ids, parentId, index);
    if (plan) drop.mutate(plan);
  };

  const afterDelete = (ids: string[]) => {
    // Leaving a page whose board is gone (itself or an ancestor was deleted).
    if (currentBoardId && ids.some((id) => isSelfOrDescendant(lookup, currentBoardId, id))) {
      navigate(`/w/${workspaceId}`);
    }
  };

  const bulk = selectedIds.length > 1;
  const filtering = !!search.trim();

  let body: React.ReactNode;
  if (tree.isPending) {
    body = (
      <Group gap="xs" px="xs" py="sm" role="status" aria-live="polite">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Loading boards…
        </Text>
      </Group>
    );
  } else if (isApiError(tree.error) && tree.error.code === "SSO_REQUIRED") {
    // The workspace's page explains it, with the way in; no alarm here.
    body = (
      <Text size="sm" c="dimmed" px="xs" py="sm">
        Sign in with single sign-on to see the boards.
      </Text>
    );
  } else if (tree.isError) {
    body = (
      <Alert color="red" variant="light" p="xs" icon={<IconAlertTriangle size={16} />} role="alert">
        <Stack gap={6} align="flex-start">
          <Text size="sm">{BOARD_MESSAGES.loadFailed}</Text>
          <Button
            size="compact-xs"
            variant="white"
            color="red"
            leftSection={<IconRefresh size={12} />}
            onClick={() => tree.refetch()}
            loading={tree.isFetching}
          >
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  } else if (filter.boards.length === 0 && addAt === undefined) {
    body = (
      <Stack gap={4} align="center" py="md" px="xs" data-testid="boards-empty">
        <IconFolderOff size={20} stroke={1.5} color="var(--mantine-color-gray-5)" aria-hidden />
        <Text size="sm" c="dimmed">
          {BOARD_MESSAGES.empty}
        </Text>
        {editable && !filtering && (
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconPlus size={12} />}
            onClick={() => startAdd(null)}
          >
            New board
          </Button>
        )}
      </Stack>
    );
  } else if (width > 0 && height > 0 && !full.tree) {
    body = (
      <BoardTreeLight
        boards={filter.boards}
        filtered={filtering}
        persistKey={`hangar:open-boards:${workspaceId}`}
        width={width}
        height={height}
        canEdit={editable}
        activeId={currentBoardId}
        revealId={revealId}
        onActivate={openBoard}
        onAddSub={startAdd}
        onHandOver={(ask) => {
          setHandOver(ask);
          if (ask.select) selectionStore.setSelectedBoards([ask.select]);
          full.want();
        }}
      />
    );
  } else if (width > 0 && height > 0 && full.tree) {
    const { BoardTree } = full.tree;
    body = (
      <BoardTree
        boards={filter.boards}
        filterTerm={filter.term}
        mode="navigate"
        persistKey={`hangar:open-boards:${workspaceId}`}
        width={width}
        height={height}
        canEdit={editable}
        activeId={currentBoardId}
        revealId={revealId}
        addAt={addAt}
        selectedIds={selectedIds}
        initialMenuFor={handOver.menuFor}
        initialSelectedIds={handOver.select ? [handOver.select] : undefined}
        onActivate={openBoard}
        onSelectionChange={selectionStore.setSelectedBoards}
        onDrop={onDrop}
        onAddSub={startAdd}
        onAddSave={saveAdd}
        onAddCancel={() => setAddAt(undefined)}
        onRename={(id, name) => rename.mutate({ id, name })}
        onMenuAction={(kind, board) => {
          if (kind === "share") return share([board.id]);
          if (kind === "request") return setRequesting({ board, open: true });
          if (kind === "review") return setReviewing({ board, open: true });
          // A smart board's filter is edited on its page, over its live result (issue 33).
          if (kind === "edit-filter")
            return navigate(`/w/${workspaceId}/b/${board.id}`, { state: { editFilter: true } });
          if (kind !== "download") return ask(kind, [board.id]);
          setDownloading(board);
          setDownloadOpen(true);
        }}
      />
    );
  }

  return (
    <Stack
      ref={panelRef}
      gap={6}
      h="100%"
      mih={0}
      data-testid="boards-panel"
      data-workspace-id={workspaceId}
      onPointerEnter={full.want}
      onPointerDown={full.want}
      onFocus={full.want}
    >
      <Group justify="space-between" px="xs" wrap="nowrap" gap={4} h={26}>
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" lts={0.4}>
          Boards
        </Text>
        {editable && (
          <Tooltip label="Add board" openDelay={400}>
            <ActionIcon variant="subtle" color="gray" size="sm" aria-label="Add board" onClick={() => startAdd(null)}>
              <IconPlus size={15} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
      {!!tree.data?.length && (
        <TextInput
          size="xs"
          mx={4}
          placeholder="Filter boards"
          aria-label="Filter boards"
          leftSection={<IconSearch size={13} />}
          rightSection={
            filter.pending ? (
              <Loader size={12} />
            ) : search ? (
              <CloseButton size="xs" aria-label="Clear filter" onClick={() => setSearch("")} />
            ) : null
          }
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          onKeyDown={(event) => event.key === "Escape" && setSearch("")}
        />
      )}
      {bulk && editable && (
        <BoardsBulkBar
          count={selectedIds.length}
          onMove={() => ask("move", selectedIds)}
          onShare={() => share(selectedIds)}
          onDelete={() => ask("delete", selectedIds)}
          onClear={() => selectionStore.setSelectedBoards([])}
        />
      )}
      <Box ref={areaRef} flex={1} mih={0} pos="relative">
        {body}
      </Box>
      <WhenOpened open={pending.open && pending.kind === "delete"}>
        <DeleteBoardsDialog
          workspaceId={workspaceId}
          boards={pending.kind === "delete" ? pending.boards : []}
          opened={pending.open && pending.kind === "delete"}
          onClose={closeDialog}
          onDeleted={afterDelete}
        />
      </WhenOpened>
      <ShareButtonDialog
        opened={sharing.open}
        onClose={() => setSharing((s) => ({ ...s, open: false }))}
        targets={sharing.boards.map((b) => ({ workspaceId, type: "board" as const, objectId: b.id, boardId: null }))}
        names={sharing.boards.map((b) => b.name)}
      />
      <WhenOpened open={requesting.open}>
        <FileRequestsDialog
          workspaceId={workspaceId}
          board={requesting.board}
          opened={requesting.open}
          onClose={() => setRequesting((r) => ({ ...r, open: false }))}
        />
      </WhenOpened>
      <WhenOpened open={reviewing.open}>
        {reviewing.board && (
          <RequestReviewDialog
            workspaceId={workspaceId}
            target={{ kind: "board", boardId: reviewing.board.id }}
            subject={`the assets of the board “${reviewing.board.name}”`}
            defaultTitle={reviewing.board.name}
            opened={reviewing.open}
            onClose={() => setReviewing((r) => ({ ...r, open: false }))}
          />
        )}
      </WhenOpened>
      <WhenOpened open={downloadOpen}>
        <DownloadBoardDialog
          workspaceId={workspaceId}
          board={downloading}
          opened={downloadOpen}
          onClose={() => setDownloadOpen(false)}
        />
      </WhenOpened>
      <WhenOpened open={pending.open && pending.kind === "move"}>
        <MoveBoardsDialog
          workspaceId={workspaceId}
          boards={pending.kind === "move" ? pending.boards : []}
          opened={pending.open && pending.kind === "move"}
          onClose={closeDialog}
          onMoved={(ids) => ids[0] && setMoved({ id: ids[0], on: currentBoardId })}
        />
      </WhenOpened>
    </Stack>
  );
}
