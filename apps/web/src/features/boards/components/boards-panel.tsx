import { Stack, Text } from "@mantine/core";

/**
 * Slot for the boards tree (spec 01 §2 "Boards panel"): header "Boards" with an add button, the draggable
 * tree, loading / "Failed to load boards" / "No boards found" states. Arrives with the boards issue; until
 * then it only marks its place in the navbar.
 */
export function BoardsPanel({ workspaceId }: { workspaceId: string }) {
  return (
    <Stack gap={4} px="xs" data-testid="boards-panel" data-workspace-id={workspaceId}>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" lts={0.4}>
        Boards
      </Text>
      <Text size="sm" c="dimmed">
        Boards arrive soon.
      </Text>
    </Stack>
  );
}
