import { Alert, Button, Group, Modal, Stack, Text } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";

/** Confirms "Delete forever": the items and their files are gone for good. */
export function PurgeDialog({
  opened,
  names,
  withBoards,
  pending,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  names: string[];
  /** Boards are among them: they take their sub-boards and the assets deleted with them. */
  withBoards: boolean;
  pending: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const many = names.length > 1;
  return (
    <Modal opened={opened} onClose={onClose} title="Delete forever" centered size={420}>
      <Stack gap="md" data-testid="purge-dialog">
        <Text size="sm">
          {many
            ? `Are you sure you want to delete these ${names.length} items forever?`
            : `Are you sure you want to delete “${names[0] ?? ""}” forever?`}
        </Text>
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} p="sm">
          This cannot be undone: the files are removed.
          {withBoards && " A board takes its sub-boards and the assets deleted with it."}
        </Alert>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" onClick={onConfirm} loading={pending} data-autofocus>
            Delete forever
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
