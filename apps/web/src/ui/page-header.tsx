import { Group, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { usePageTitle } from "../lib/page-title";

/**
 * The h1 of an app page, with an optional line below and actions on the right. The page's document
 * title is its heading (a text one), or `documentTitle` when the heading is more than text.
 */
export function PageHeader({
  title,
  description,
  actions,
  documentTitle,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  documentTitle?: string;
}) {
  usePageTitle(documentTitle ?? (typeof title === "string" ? title : null));
  return (
    <Group justify="space-between" align="flex-end" mb="md" wrap="wrap" gap="md">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="sm" component="div">
            {description}
          </Text>
        )}
      </Stack>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}
