import { BOARD_MESSAGES, type Board } from "@hangar/contract";
import { Alert, Button, Group, List, Modal, Stack, Text } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { useDeleteBoards } from "../../../entities/board";

const LISTED = 5;

/**
 * Confirms deleting one board (the catalogue's exact question) or many (with the warning that the
 * sub-boards and assets inside go too, spec 01 §4). The toast and its Undo come from the mutation.
 */
export function DeleteBoardsDialog({
  workspaceId,
  boards,
  opened,
  onClose,
  onDeleted,
}: {
  workspaceId: string;
  /** The topmost boards to delete. */
  boards: Board[];
  opened: boolean;
  onClose: () => void;
  onDeleted?: (ids: string[]) => void;
}) {
  const remove = useDeleteBoards(workspaceId);
  const many = boards.length > 1;

  const confirm = () => {
    const ids = boards.map((b) => b.id);
    // mutateAsync: the caller's follow-up (leaving a deleted board's page) must run even if this closes.
    remove.mutateAsync(ids).then(
      () => {
        onClose();
        onDeleted?.(ids);
      },
      () => {
        // the mutation shows "Failed to delete board"; the dialog stays for another try
      },
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={many ? `Delete ${boards.length} boards` : "Delete board"}
      centered
      size={420}
    >
      <Stack gap="md" data-testid="delete-boards-dialog">
        {many ? (
          <>
            <Text size="sm">Are you sure you want to delete these {boards.length} boards?</Text>
            <List size="sm" spacing={2}>
              {boards.slice(0, LISTED).map((b) => (
                <List.Item key={b.id}>{b.name}</List.Item>
              ))}
              {boards.length > LISTED && <List.Item>and {boards.length - LISTED} more</List.Item>}
            </List>
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} p="sm">
              The assets and sub-boards inside these boards are deleted too.
            </Alert>
          </>
        ) : (
          <>
            <Text size="sm">{BOARD_MESSAGES.confirmDelete}</Text>
            {boards[0] && (
              <Text size="sm" c="dimmed">
                “{boards[0].name}”
                {boards[0].child_count > 0 &&
                  ` and its ${boards[0].child_count} sub-board${boards[0].child_count === 1 ? "" : "s"}`}
              </Text>
            )}
          </>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" onClick={confirm} loading={remove.isPending} data-autofocus>
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
