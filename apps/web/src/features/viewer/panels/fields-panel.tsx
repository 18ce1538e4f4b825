import { Stack, Text, Title } from "@mantine/core";
import { IconForms } from "@tabler/icons-react";
import { VIEWER_MESSAGES } from "../viewer-constants";

/** Heading Fields; empty until the workspace has custom fields (the custom-fields issue fills it). */
export function FieldsPanel() {
  return (
    <Stack gap="md" data-testid="fields-panel">
      <Title order={5}>{VIEWER_MESSAGES.fieldsHeading}</Title>
      <Stack align="center" gap={4} py="lg">
        <IconForms size={32} color="var(--mantine-color-gray-5)" />
        <Text fw={600}>{VIEWER_MESSAGES.noFields}</Text>
        <Text size="sm" c="dimmed" ta="center">
          {VIEWER_MESSAGES.noFieldsDetail}
        </Text>
      </Stack>
    </Stack>
  );
}
