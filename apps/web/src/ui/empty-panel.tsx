import { EmptyState, Paper } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * A bordered empty state: an icon, a short title, one sentence and an optional action. The title is
 * a heading of `headingOrder` when the panel is what a page is about (a not-found page's h1).
 */
export function EmptyPanel({
  icon,
  title,
  description,
  action,
  testId,
  headingOrder,
}: {
  icon: ReactNode;
  title: string;
  description: ReactNode;
  action?: ReactNode;
  testId?: string;
  headingOrder?: 1 | 2 | 3 | 4;
}) {
  return (
    <Paper withBorder radius="lg" p="xl" data-testid={testId}>
      <EmptyState icon={icon} withIndicatorBackground py="lg">
        <EmptyState.Title order={headingOrder}>{title}</EmptyState.Title>
        <EmptyState.Description>{description}</EmptyState.Description>
        {action && <EmptyState.Actions>{action}</EmptyState.Actions>}
      </EmptyState>
    </Paper>
  );
}
