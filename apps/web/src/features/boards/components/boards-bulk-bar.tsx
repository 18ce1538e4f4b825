import { Button, CloseButton, Group, Paper, Text } from "@mantine/core";

/** Board bulk mode (spec 01 §4: more than one board selected): share, move or delete them together. */
export function BoardsBulkBar({
  count,
  onMove,
  onDelete,
  onShare,
  onClear,
}: {
  count: number;
  onShare: () => void;
  onMove: () => void;
  onDelete: () => void;
  onClear: () => void;
}) {
  return (
    <Paper
      mx={4}
      pl={8}
      pr={2}
      py={3}
      radius="md"
      bg="var(--mantine-primary-color-light)"
      role="toolbar"
      aria-label="Selected boards"
      data-testid="boards-bulk-bar"
    >
      <Group gap={2} wrap="nowrap" justify="space-between">
        <Text size="xs" fw={600} c="var(--mantine-primary-color-light-color)" style={{ whiteSpace: "nowrap" }}>
          {count} selected
        </Text>
        <Group gap={0} wrap="nowrap">
          <Button size="compact-xs" variant="subtle" onClick={onShare}>
            Share
          </Button>
          <Button size="compact-xs" variant="subtle" onClick={onMove}>
            Move
          </Button>
          <Button size="compact-xs" variant="subtle" color="red" onClick={onDelete}>
            Delete
          </Button>
          <CloseButton size="sm" aria-label="Clear board selection" onClick={onClear} />
        </Group>
      </Group>
    </Paper>
  );
}
