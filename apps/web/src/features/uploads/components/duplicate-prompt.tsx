import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import { IconCopy } from "@tabler/icons-react";
import { answerDuplicate, whereIs } from "../duplicates";
import type { UploadItem } from "../upload-store";

/**
 * The first upload waiting on its duplicates (issue 29): "This file is already here: {name} in
 * {board}", with Keep both, Add as new version of {name} (a live duplicate only), and Skip.
 */
export function DuplicatePrompt({ items }: { items: readonly UploadItem[] }) {
  const waiting = items.filter((item) => item.duplicates?.length);
  const item = waiting[0];
  const found = item?.duplicates?.[0];
  if (!item || !found) return null;
  const others = waiting.length - 1;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconCopy size={18} />}
      title={item.name}
      role="alertdialog"
      aria-label={`${item.name} is already here`}
      data-testid="duplicate-prompt"
    >
      <Stack gap="xs">
        <Text size="sm" data-testid="duplicate-text">
          This file is already here: <b>{found.name}</b> in {whereIs(found)}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => answerDuplicate(item.id, { kind: "keep" })}>
            Keep both
          </Button>
          {!found.deleted && (
            <Button size="xs" onClick={() => answerDuplicate(item.id, { kind: "version", of: found })} data-autofocus>
              Add as new version of {found.name}
            </Button>
          )}
          <Button size="xs" variant="subtle" color="gray" onClick={() => answerDuplicate(item.id, { kind: "skip" })}>
            Skip
          </Button>
        </Group>
        {others > 0 && (
          <Text size="xs" c="dimmed">
            {others === 1 ? "1 more file is" : `${others} more files are`} already here too.
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
