import { Stack, Text } from "@mantine/core";
import { IconMessageCircle } from "@tabler/icons-react";
import { VIEWER_MESSAGES } from "../viewer-constants";

/** The comment drawer's empty state; the review issue adds the list, threads and the compose box. */
export function CommentsPanel() {
  return (
    <Stack align="center" gap={4} py="xl" data-testid="comments-panel">
      <IconMessageCircle size={32} color="var(--mantine-color-gray-5)" />
      <Text fw={600}>{VIEWER_MESSAGES.noComments}</Text>
      <Text size="sm" c="dimmed">
        {VIEWER_MESSAGES.noCommentsDetail}
      </Text>
    </Stack>
  );
}
