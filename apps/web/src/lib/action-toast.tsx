import { Button, Group, Text } from "@mantine/core";

/** A toast body: the message and one small action button beside it (see notifySuccessWithAction). */
export function ActionToast({ message, label, onClick }: { message: string; label: string; onClick: () => void }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap">
      <Text size="sm" span>
        {message}
      </Text>
      <Button size="compact-xs" variant="subtle" onClick={onClick}>
        {label}
      </Button>
    </Group>
  );
}
