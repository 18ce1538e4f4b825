import { TRASH_RETENTION_DAYS } from "@hangar/contract";
import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useDeleteAssets } from "../api";

/**
 * Confirms deleting one asset or many. They go to Recently deleted (restorable for 30 days); the
 * toast offers Undo. Clears the selection after (spec 01 §4).
 */
export function DeleteAssetsDialog({
  workspaceId,
  assetIds,
  name,
  opened,
  onClose,
  onDeleted,
}: {
  workspaceId: string;
  assetIds: string[];
  name?: string;
  opened: boolean;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const remove = useDeleteAssets(workspaceId);
  const many = assetIds.length > 1;
  const confirm = () =>
    remove.mutate(
      { ids: assetIds },
      {
        onSuccess: () => {
          onClose();
          onDeleted?.();
        },
      },
    );
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={many ? `Delete ${assetIds.length} assets` : "Delete asset"}
      centered
      size={420}
    >
      <Stack gap="md" data-testid="delete-assets-dialog">
        <Text size="sm">
          {many
            ? `Are you sure you want to delete these ${assetIds.length} assets?`
            : `Are you sure you want to delete ${name ? `“${name}”` : "this asset"}?`}
        </Text>
        <Text size="sm" c="dimmed">
          Deleted assets stay in Recently deleted for {TRASH_RETENTION_DAYS} days, where they can be restored.
        </Text>
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
