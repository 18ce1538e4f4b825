import { EmptyState, Paper } from "@mantine/core";
import type { ReactNode } from "react";

/** A bordered empty state: an icon, a short title, one sentence and an optional action. */
export function EmptyPanel({
  icon,
  title,
  description,
  action,
  testId,
}: {
  icon: ReactNode;
  title: string;
  description: ReactNode;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <Paper withBorder radius="lg" p="xl" data-testid={testId}>
      <EmptyState icon={icon} withIndicatorBackground title={title} description={description} py="lg">
        {action && <EmptyState.Actions>{action}</EmptyState.Actions>}
      </EmptyState>
    </Paper>
  );
}
