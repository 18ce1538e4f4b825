import { type Board, canEdit, SMART_BOARD_MESSAGES } from "@hangar/contract";
import {
  ActionIcon,
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Card,
  Drawer,
  Group,
  Menu,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
} from "@mantine/core";
import { IconDots, IconDownload, IconFilterBolt, IconHistory, IconLayoutBoard, IconShare } from "@tabler/icons-react";
import { useEffect, useMemo, useState } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router-dom";
import {
  type BoardMenuAction,
  BoardMenuItems,
  BoardTreeIcon,
  indexTree,
  useBoardAncestors,
  useBoardTree,
} from "../../../entities/board";
import { selectionStore, useCurrentWorkspace } from "../../../entities/workspace";
import { errorMessage, isApiError } from "../../../lib/api-client";
import { WhenOpened } from "../../../lib/deferred";
import { usePageTitle } from "../../../lib/page-title";
import { EmptyPanel } from "../../../ui/empty-panel";
import { ErrorState } from "../../../ui/error-state";
import { NotFoundState } from "../../../ui/not-found-state";
import { AssetBrowser } from "../../assets";
import { ObjectHistory } from "../../audit";
import { DownloadBoardDialog } from "../../downloads";
import { FileRequestsDialog } from "../../file-requests";
import { RequestReviewDialog } from "../../reviews";
import { ShareButtonDialog } from "../../shares";
import { DeleteBoardsDialog } from "../dialogs/delete-boards-dialog";
import { MoveBoardsDialog } from "../dialogs/move-boards-dialog";
import { RenameBoardDialog } from "../dialogs/rename-board-dialog";
import classes from "./board-page.module.css";
import { SmartBoardSummary } from "./smart-board-summary";

const isMissing = (error: unknown) => isApiError(error) && [400, 404, 422].includes(error.status);

type Dialog = Exclude<BoardMenuAction, "share" | "edit-filter"> | null;

/**
 * /w/:id/b/:boardId — a board: trail of ancestors, name, its sub-boards, then its assets (only those
 * directly in it). /w/:id/b/:boardId/a/:assetId shows an asset's preview over the same page.
 */
export function BoardPage() {
  const { boardId = "" } = useParams();
  const workspace = useCurrentWorkspace();
  const navigate = useNavigate();
  const tree = useBoardTree(workspace.id);
  const ancestors = useBoardAncestors(workspace.id, boardId);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [sharing, setSharing] = useState(false);
  const [activity, setActivity] = useState(false);
  // "Edit filter" from the tree's menu opens the board with its filter builder (issue 33).
  const location = useLocation();
  const [editingFilter, setEditingFilter] = useState(!!(location.state as { editFilter?: boolean } | null)?.editFilter);
  useEffect(() => {
    if ((location.state as { editFilter?: boolean } | null)?.editFilter) setEditingFilter(true);
  }, [location.state]);
  const base = `/w/${workspace.id}`;

  // The URL holds the current board (DESIGN §3); the store mirrors it for the panels that need it.
  useEffect(() => {
    selectionStore.setCurrentBoard(boardId);
    return () => selectionStore.setCurrentBoard(null);
  }, [boardId]);

  const board: Board | undefined = useMemo(() => indexTree(tree.data ?? []).get(boardId)?.board, [tree.data, boardId]);
  usePageTitle(board?.name);

  const gone = isMissing(ancestors.error) || (tree.isSuccess && !tree.isFetching && !board);
  if (gone) {
    return (
      <NotFoundState
        title="Board not found"
        description="This board does not exist, was deleted, or belongs to another workspace."
        backTo={base}
        backLabel="Back to the workspace"
      />
    );
  }
  if (ancestors.isError && !isMissing(ancestors.error)) {
    return (
      <ErrorState
        title="Board unavailable"
        message={errorMessage(ancestors.error, "Failed to fetch boards")}
        onRetry={() => ancestors.refetch()}
        retrying={ancestors.isFetching}
      />
    );
  }
  if (!board || !ancestors.data) {
    return (
      <Stack gap="md" role="status" aria-label="Loading board">
        <Skeleton height={14} width={220} />
        <Skeleton height={32} width={320} />
        <Skeleton height={160} mt="md" />
      </Stack>
    );
  }

  const editable = canEdit(workspace.user_role);
  const children = board.children ?? [];
  const smart = board.kind === "smart";
  const onMenu = (action: BoardMenuAction) =>
    action === "share" ? setSharing(true) : action === "edit-filter" ? setEditingFilter(true) : setDialog(action);

  return (
    <Stack gap="lg" data-testid="board-page">
      <Stack gap={6}>
        {/* A deep or long path wraps, and each name truncates to the screen (a phone's is narrow). */}
        <Breadcrumbs
          separator="›"
          separatorMargin={6}
          aria-label="Breadcrumb"
          data-testid="board-breadcrumbs"
          style={{ flexWrap: "wrap" }}
        >
          <Anchor component={Link} to={`${base}/b/all`} size="sm" c="dimmed" className={classes.crumb}>
            {workspace.name}
          </Anchor>
          {ancestors.data.map((a) => (
            <Anchor key={a.id} component={Link} to={`${base}/b/${a.id}`} size="sm" c="dimmed" className={classes.crumb}>
              {a.name}
            </Anchor>
          ))}
          <Text size="sm" aria-current="page" className={classes.crumb}>
            {board.name}
          </Text>
        </Breadcrumbs>
        {/* The title takes the line's room; the buttons wrap below it when both do not fit. */}
        <Group justify="space-between" wrap="wrap" gap="md">
          <Group gap="xs" wrap="nowrap" className={classes.title}>
            {smart && (
              <ThemeIcon variant="light" color="violet" size={34} radius="md" aria-hidden>
                <IconFilterBolt size={20} />
              </ThemeIcon>
            )}
            <Title order={1} size="h2" className={classes.title}>
              {board.name}
            </Title>
            {smart && (
              <Badge variant="light" color="violet" style={{ flexShrink: 0 }} data-testid="smart-board-badge">
                {SMART_BOARD_MESSAGES.badge}
              </Badge>
            )}
          </Group>
          <Group gap="xs" wrap="nowrap">
            {/* Every member may read what happened to the board (issue 36's history). */}
            <Tooltip label="Activity">
              <ActionIcon
                variant="default"
                size="lg"
                aria-label="Board activity"
                onClick={() => setActivity(true)}
                data-testid="board-activity"
              >
                <IconHistory size={18} />
              </ActionIcon>
            </Tooltip>
            {/* Every role may download a board (as a zip); only editors get the board menu. */}
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              onClick={() => setDialog("download")}
              data-testid="board-download"
            >
              Download
            </Button>
            {editable && (
              <Button
                variant="default"
                leftSection={<IconShare size={16} />}
                onClick={() => setSharing(true)}
                data-testid="board-share"
              >
                Share
              </Button>
            )}
            {editable && (
              <Menu position="bottom-end" shadow="md" width={180}>
                <Menu.Target>
                  <ActionIcon variant="default" size="lg" aria-label="Board options">
                    <IconDots size={18} />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  {/* The same menu as the board's row in the boards tree. */}
                  <BoardMenuItems onAction={onMenu} smart={smart} />
                </Menu.Dropdown>
              </Menu>
            )}
          </Group>
        </Group>
        {smart ? (
          <SmartBoardSummary
            workspaceId={workspace.id}
            board={board}
            editable={editable}
            editing={editingFilter}
            onEditing={setEditingFilter}
          />
        ) : (
          <Text size="sm" c="dimmed">
            {children.length === 0
              ? "No sub-boards"
              : `${children.length} sub-board${children.length === 1 ? "" : "s"}`}
          </Text>
        )}
      </Stack>

      {children.length > 0 && (
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" data-testid="sub-boards">
          {children.map((child) => (
            <Card
              key={child.id}
              component={Link}
              to={`${base}/b/${child.id}`}
              withBorder
              radius="md"
              padding="sm"
              className="hangar-hover-card"
              onClick={() => selectionStore.setSelectedAssets([])}
            >
              <Group gap="sm" wrap="nowrap">
                <ThemeIcon
                  variant="light"
                  color={child.kind === "smart" ? "violet" : undefined}
                  size={34}
                  radius="md"
                  aria-hidden
                >
                  <BoardTreeIcon smart={child.kind === "smart"} size={18} />
                </ThemeIcon>
                <Stack gap={0} miw={0}>
                  <Text size="sm" fw={600} truncate>
                    {child.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {child.kind === "smart"
                      ? SMART_BOARD_MESSAGES.badge
                      : child.child_count === 0
                        ? "Board"
                        : `${child.child_count} sub-board${child.child_count === 1 ? "" : "s"}`}
                  </Text>
                </Stack>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      )}

      <AssetBrowser
        workspaceId={workspace.id}
        boardId={board.id}
        boardName={board.name}
        smart={smart}
        canSaveSmart={editable}
        empty={
          smart ? (
            <EmptyPanel
              testId="board-empty"
              icon={<IconFilterBolt size={28} />}
              title="Nothing matches right now"
              description="Assets appear here as soon as they match this smart board's filter."
            />
          ) : (
            <EmptyPanel
              testId="board-empty"
              icon={<IconLayoutBoard size={28} />}
              title={children.length ? "No assets in this board" : "This board is empty"}
              description="Use Upload while this board is open to add files to it."
            />
          )
        }
      />

      <ShareButtonDialog
        opened={sharing}
        onClose={() => setSharing(false)}
        targets={[{ workspaceId: workspace.id, type: "board", objectId: board.id, boardId: null }]}
        names={[board.name]}
      />
      <RenameBoardDialog
        workspaceId={workspace.id}
        board={board}
        opened={dialog === "rename"}
        onClose={() => setDialog(null)}
      />
      <MoveBoardsDialog
        workspaceId={workspace.id}
        boards={[board]}
        opened={dialog === "move"}
        onClose={() => setDialog(null)}
      />
      <WhenOpened open={dialog === "download"}>
        <DownloadBoardDialog
          workspaceId={workspace.id}
          board={board}
          opened={dialog === "download"}
          onClose={() => setDialog(null)}
        />
      </WhenOpened>
      <WhenOpened open={dialog === "request"}>
        <FileRequestsDialog
          workspaceId={workspace.id}
          board={board}
          opened={dialog === "request"}
          onClose={() => setDialog(null)}
        />
      </WhenOpened>
      <WhenOpened open={dialog === "review"}>
        <RequestReviewDialog
          workspaceId={workspace.id}
          target={{ kind: "board", boardId: board.id }}
          subject={`the assets of the board “${board.name}”`}
          defaultTitle={board.name}
          opened={dialog === "review"}
          onClose={() => setDialog(null)}
        />
      </WhenOpened>
      <DeleteBoardsDialog
        workspaceId={workspace.id}
        boards={[board]}
        opened={dialog === "delete"}
        onClose={() => setDialog(null)}
        onDeleted={() => navigate(base)}
      />
      <Drawer
        opened={activity}
        onClose={() => setActivity(false)}
        title={`Activity · ${board.name}`}
        position="right"
        size="md"
        data-testid="board-activity-drawer"
      >
        {activity && <ObjectHistory workspaceId={workspace.id} kind="board" id={board.id} open />}
      </Drawer>
    </Stack>
  );
}
