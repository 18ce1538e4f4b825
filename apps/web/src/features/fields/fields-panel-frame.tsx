import { FIELD_MESSAGES } from "@hangar/contract";
import { Alert, Button, Group, Loader, Stack, Text } from "@mantine/core";
import { IconForms } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { errorMessage } from "../../lib/api-client";

/**
 * The fields tab's frame (spec 02 §2 Fields panel, §8): heading Fields, then the fetch error with
 * Retry, a loader, the empty texts, or the fields themselves. Members' and visitors' tabs share it.
 */
export function FieldsPanelFrame(props: {
  error: unknown;
  loading: boolean;
  empty: boolean;
  onRetry(): void;
  children: ReactNode;
}) {
  return (
    <Stack gap="sm" data-testid="fields-panel">
      <Text fw={650}>Fields</Text>
      {props.error ? (
        <Alert color="red" variant="light">
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">{errorMessage(props.error, FIELD_MESSAGES.fetchFailed)}</Text>
            <Button size="compact-xs" variant="light" color="red" onClick={props.onRetry}>
              Retry
            </Button>
          </Group>
        </Alert>
      ) : props.loading ? (
        <Loader size="sm" />
      ) : props.empty ? (
        <Stack align="center" gap={4} py="xl" data-testid="fields-empty">
          <IconForms size={32} color="var(--mantine-color-gray-5)" />
          <Text fw={600}>{FIELD_MESSAGES.noFields}</Text>
          <Text size="sm" c="dimmed" ta="center">
            {FIELD_MESSAGES.noFieldsDetail}
          </Text>
        </Stack>
      ) : (
        props.children
      )}
    </Stack>
  );
}
