import { ASSET_MESSAGES, SMART_BOARD_MESSAGES } from "@hangar/contract";
import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { BoardSelectDialog, type Destination } from "../../entities/board-tree";
import { useAddToBoard, useMoveAssets, useRemoveFromBoard } from "./api";

const describe = (count: number, name?: string) =>
  count === 1 && name ? `“${name}”` : `${count} asset${count === 1 ? "" : "s"}`;

/** Add to board: the board picker (no Root: an asset is at the root by being in no board). */
export function AddToBoardDialog({
  workspaceId,
  assetIds,
  name,
  opened,
  onClose,
}: {
  workspaceId: string;
  assetIds: string[];
  /** The asset's name when there is one. */
  name?: string;
  opened: boolean;
  onClose: () => void;
}) {
  const add = useAddToBoard(workspaceId);
  const confirm = (board: Destination | null) => {
    if (!board) return;
    add.mutate({ ids: assetIds, board }, { onSuccess: onClose });
  };
  return (
    <BoardSelectDialog
      smartRefusal={SMART_BOARD_MESSAGES.noFiling}
      workspaceId={workspaceId}
      opened={opened}
      onClose={onClose}
      title={assetIds.length > 1 ? `Add ${assetIds.length} assets to board` : "Add to board"}
      description={
        assetIds.length === 1
          ? `Adding ${describe(1, name)}; it stays in its other boards too.`
          : `Adding ${describe(assetIds.length)}; they stay in their other boards too.`
      }
      confirmLabel="Add here"
      onConfirm={confirm}
      pending={add.isPending}
      allowRoot={false}
    />
  );
}

/** Move to board: out of every board they are in, into one (or to Root). Clears the selection after. */
export function MoveToBoardDialog({
  workspaceId,
  assetIds,
  name,
  opened,
  onClose,
  onMoved,
}: {
  workspaceId: string;
  assetIds: string[];
  name?: string;
  opened: boolean;
  onClose: () => void;
  onMoved?: () => void;
}) {
  const move = useMoveAssets(workspaceId);
  const confirm = (destination: Destination | null) =>
    move.mutate(
      { ids: assetIds, destination },
      {
        onSuccess: () => {
          onClose();
          onMoved?.();
        },
      },
    );
  return (
    <BoardSelectDialog
      smartRefusal={SMART_BOARD_MESSAGES.noFiling}
      workspaceId={workspaceId}
      opened={opened}
      onClose={onClose}
      title={assetIds.length > 1 ? `Move ${assetIds.length} assets` : "Move to board"}
      description={
        assetIds.length === 1
          ? `Moving ${describe(1, name)} out of its boards. Root keeps it only in All assets.`
          : `Moving ${describe(assetIds.length)} out of their boards. Root keeps them only in All assets.`
      }
      confirmLabel="Move here"
      onConfirm={confirm}
      pending={move.isPending}
    />
  );
}

/** Remove from the current board (the assets themselves stay in the workspace). */
export function RemoveFromBoardDialog({
  workspaceId,
  boardId,
  boardName,
  assetIds,
  name,
  opened,
  onClose,
  onRemoved,
}: {
  workspaceId: string;
  boardId: string | null;
  boardName?: string;
  assetIds: string[];
  name?: string;
  opened: boolean;
  onClose: () => void;
  onRemoved?: () => void;
}) {
  const remove = useRemoveFromBoard(workspaceId);
  const confirm = () =>
    remove.mutate(
      { ids: assetIds, boardId, name },
      {
        onSuccess: () => {
          onClose();
          onRemoved?.();
        },
      },
    );
  return (
    <Modal opened={opened} onClose={onClose} title="Remove from board" centered size={420}>
      <Stack gap="md" data-testid="remove-from-board-dialog">
        {boardId ? (
          <Text size="sm">
            Remove {describe(assetIds.length, name)} from {boardName ? `“${boardName}”` : "this board"}? The asset
            {assetIds.length === 1 ? " stays" : "s stay"} in All assets and in other boards.
          </Text>
        ) : (
          <Text size="sm" c="red">
            {ASSET_MESSAGES.missingBoard}
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={confirm} loading={remove.isPending} disabled={!boardId} data-autofocus>
            Remove
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
