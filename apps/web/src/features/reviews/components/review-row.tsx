import type { ReviewSummary } from "@hangar/contract";
import { Group, Paper, Progress, Stack, Text } from "@mantine/core";
import { IconAlertCircle, IconCalendarDue } from "@tabler/icons-react";
import { Link } from "react-router-dom";
import { formatWhen, progressText, ReviewStateBadge } from "../../../entities/review";

/** One review of a list: title and state, progress, due date (red when overdue), requester, stage. */
export function ReviewRow({ workspaceId, review }: { workspaceId: string; review: ReviewSummary }) {
  const { progress } = review;
  const overdue = review.overdue && !review.done && review.state !== "canceled";
  return (
    <Paper
      component={Link}
      to={`/w/${workspaceId}/reviews/${review.id}`}
      withBorder
      radius="md"
      p="sm"
      className="hangar-hover-card"
      data-testid="review-row"
      style={{ display: "block", color: "inherit", textDecoration: "none" }}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={4} miw={0} style={{ flex: 1 }}>
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Text fw={600} truncate="end" data-testid="review-row-title">
              {review.title}
            </Text>
          </Group>
          <Group gap="md" style={{ rowGap: 2 }} wrap="wrap">
            <Text size="xs" c="dimmed">
              {review.requested_by ? `Requested by ${review.requested_by.name}` : "Requester left"}
            </Text>
            {review.stage_count > 1 && (
              <Text size="xs" c="dimmed">
                Stage {Math.min(review.active_stage + 1, review.stage_count)} of {review.stage_count}
              </Text>
            )}
            {review.due_at && (
              <Group gap={4} wrap="nowrap" c={overdue ? "red" : "dimmed"} data-overdue={overdue || undefined}>
                {overdue ? <IconAlertCircle size={13} aria-hidden /> : <IconCalendarDue size={13} aria-hidden />}
                <Text size="xs" c="inherit" fw={overdue ? 600 : undefined} data-testid="review-row-due">
                  {overdue ? "Overdue: " : "Due "}
                  {formatWhen(review.due_at)}
                </Text>
              </Group>
            )}
            {review.waiting_for_me > 0 && (
              <Text size="xs" c="blue" fw={600}>
                {review.waiting_for_me} waiting for you
              </Text>
            )}
          </Group>
        </Stack>
        <Stack gap={6} align="flex-end" w={{ base: 120, sm: 170 }} style={{ flexShrink: 0 }}>
          <ReviewStateBadge state={review.state} data-testid="review-row-state" />
          <Text size="xs" c="dimmed" data-testid="review-row-progress">
            {progressText(progress)}
          </Text>
          <Progress.Root size={6} w="100%" aria-hidden>
            <Progress.Section value={progress.total ? (progress.approved / progress.total) * 100 : 0} color="green" />
            <Progress.Section
              value={progress.total ? (progress.changes_requested / progress.total) * 100 : 0}
              color="orange"
            />
            <Progress.Section value={progress.total ? (progress.rejected / progress.total) * 100 : 0} color="red" />
          </Progress.Root>
        </Stack>
      </Group>
    </Paper>
  );
}
