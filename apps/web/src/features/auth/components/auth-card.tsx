import { Paper, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { usePageTitle } from "../../../lib/page-title";

/**
 * The card every public account page sits in: a heading, an optional line, the content, a footer.
 * Its heading is the page's document title.
 */
export function AuthCard({
  title,
  description,
  children,
  footer,
  testId,
}: {
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  testId?: string;
}) {
  usePageTitle(typeof title === "string" ? title : null);
  return (
    <Paper withBorder shadow="sm" radius="lg" p={{ base: "lg", sm: "xl" }} data-testid={testId}>
      <Stack gap="lg">
        <Stack gap={6}>
          <Title order={1} size="h3">
            {title}
          </Title>
          {description && (
            <Text c="dimmed" size="sm">
              {description}
            </Text>
          )}
        </Stack>
        {children}
        {footer && (
          <Text size="sm" c="dimmed" ta="center">
            {footer}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
