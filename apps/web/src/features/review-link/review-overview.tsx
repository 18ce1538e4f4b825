import { DECISION_LABELS, REVIEW_MESSAGES, type ReviewerPage, STATUS_LABELS } from "@hangar/contract";
import {
  Alert,
  Badge,
  Box,
  Group,
  Paper,
  Progress,
  Stack,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
  UnstyledButton,
} from "@mantine/core";
import { IconCalendarDue, IconInfoCircle, IconMovie, IconUser } from "@tabler/icons-react";
import { AssetThumb } from "../../entities/asset";
import { relativeTime } from "../../entities/format";
import { formatWhen, REVIEW_COLORS } from "../../entities/review";
import { ProductMark } from "../../ui/product-mark";

/** Why the reviewer cannot decide now, in their words (stages are numbered from 1 for people). */
function notDeciding(page: ReviewerPage): string | null {
  const { review, reviewer } = page;
  if (review.state === "canceled") return REVIEW_MESSAGES.canceled;
  if (reviewer.stage > review.active_stage) return REVIEW_MESSAGES.waitingStage(reviewer.stage + 1);
  if (reviewer.stage < review.active_stage) return REVIEW_MESSAGES.stageDone;
  return null;
}

/**
 * The review as its outside reviewer sees it (issue 30): who asks, the title, message and due date
 * (red when overdue), how far it is, and its assets, each with its state and the reviewer's own
 * decision; a click opens the asset in the viewer.
 */
export function ReviewOverview({ page, onOpen }: { page: ReviewerPage; onOpen(assetId: string): void }) {
  const { review, reviewer, progress } = page;
  const waiting = page.assets.filter((a) => a.awaiting_me).length;
  const blocked = notDeciding(page);
  return (
    <Box mih="100dvh" bg="var(--mantine-color-gray-0)" data-testid="review-page">
      <Group
        component="header"
        h={56}
        px={{ base: "sm", sm: "lg" }}
        justify="space-between"
        wrap="nowrap"
        bg="white"
        style={{ borderBottom: "1px solid var(--mantine-color-gray-3)" }}
      >
        <ProductMark size="sm" />
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          <ThemeIcon size="sm" variant="light" radius="xl" aria-hidden>
            <IconUser size={14} />
          </ThemeIcon>
          <Text size="sm" truncate="end" data-testid="review-reviewer-name">
            Reviewing as <b>{reviewer.name}</b>
          </Text>
        </Group>
      </Group>

      <Stack gap="lg" p={{ base: "md", sm: "xl" }} maw={1200} mx="auto">
        <Stack gap={6}>
          <Text size="sm" c="dimmed">
            {review.requested_by_name
              ? `${review.requested_by_name} of ${review.workspace_name}`
              : review.workspace_name}{" "}
            asks for your review
          </Text>
          <Group gap="sm" align="center">
            <Title order={2} data-testid="review-title" style={{ wordBreak: "break-word" }}>
              {review.title}
            </Title>
            <Badge variant="light" color={REVIEW_COLORS[review.state]} data-testid="review-state">
              {STATUS_LABELS[review.state]}
            </Badge>
          </Group>
          <Group gap="md" wrap="wrap">
            {review.due_at && (
              <Group gap={4} wrap="nowrap" c={review.overdue ? "red" : "dimmed"} data-testid="review-due">
                <IconCalendarDue size={16} />
                <Text size="sm" c={review.overdue ? "red" : "dimmed"} fw={review.overdue ? 600 : undefined}>
                  {review.overdue ? "Overdue: was due " : "Due "}
                  {formatWhen(review.due_at)}
                </Text>
              </Group>
            )}
            {review.stage_count > 1 && (
              <Text size="sm" c="dimmed">
                Stage {review.active_stage + 1} of {review.stage_count} · yours is stage {reviewer.stage + 1}
              </Text>
            )}
          </Group>
        </Stack>

        {review.message && (
          <Paper withBorder radius="md" p="md" data-testid="review-message">
            <Text size="sm" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
              {review.message}
            </Text>
          </Paper>
        )}

        <Stack gap={6}>
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={600} data-testid="review-progress">
              {progress.approved} of {progress.total} approved
            </Text>
            <Text size="sm" c="dimmed" data-testid="review-waiting">
              {blocked ?? (waiting > 0 ? `${waiting} awaiting your decision` : "Nothing awaits your decision")}
            </Text>
          </Group>
          <Progress.Root size="sm" aria-label={`${progress.approved} of ${progress.total} approved`}>
            <Progress.Section value={(progress.approved / Math.max(1, progress.total)) * 100} color="green" />
            <Progress.Section
              value={((progress.changes_requested + progress.rejected) / Math.max(1, progress.total)) * 100}
              color="orange"
            />
          </Progress.Root>
        </Stack>

        {blocked && (
          <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />}>
            {blocked} You can still look at the assets and comment.
          </Alert>
        )}

        {page.assets.length === 0 ? (
          <Text c="dimmed" ta="center" py="xl">
            This review has no assets any more.
          </Text>
        ) : (
          <Box
            component="ul"
            m={0}
            p={0}
            data-testid="review-assets"
            style={{
              listStyle: "none",
              display: "grid",
              gridTemplateColumns: "repeat(auto-fill, minmax(min(220px, 40vw), 1fr))",
              gap: 12,
            }}
          >
            {page.assets.map((entry) => (
              <li key={entry.asset.id}>
                <AssetCard entry={entry} onOpen={() => onOpen(entry.asset.id)} />
              </li>
            ))}
          </Box>
        )}
      </Stack>
    </Box>
  );
}

function AssetCard({ entry, onOpen }: { entry: ReviewerPage["assets"][number]; onOpen(): void }) {
  const { asset, status, my_decision: mine } = entry;
  return (
    <UnstyledButton
      onClick={onOpen}
      aria-label={`Open ${asset.name}`}
      data-testid="review-asset"
      data-status={status}
      w="100%"
      style={{
        borderRadius: 8,
        overflow: "hidden",
        background: "white",
        border: `1px solid var(--mantine-color-${entry.awaiting_me ? "blue-4" : "gray-3"})`,
      }}
    >
      <Box pos="relative" style={{ aspectRatio: "4 / 3" }}>
        <AssetThumb asset={asset} fileType={asset.file_type} iconSize={36} />
        {asset.file_type === "VIDEO" && (
          <Box pos="absolute" left={8} bottom={8} c="white" style={{ filter: "drop-shadow(0 1px 2px #0008)" }}>
            <IconMovie size={18} />
          </Box>
        )}
        <Badge
          pos="absolute"
          top={8}
          left={8}
          size="sm"
          variant="filled"
          color={REVIEW_COLORS[status]}
          data-testid="review-asset-status"
        >
          {STATUS_LABELS[status]}
        </Badge>
      </Box>
      <Stack gap={2} px="xs" py={6}>
        <Text size="sm" fw={500} truncate="end">
          {asset.name}
        </Text>
        {mine ? (
          <Tooltip label={new Date(mine.decided_at).toLocaleString()} openDelay={300}>
            <Text size="xs" c={REVIEW_COLORS[mine.decision]} data-testid="review-asset-mine">
              You: {DECISION_LABELS[mine.decision]} · {relativeTime(mine.decided_at)}
            </Text>
          </Tooltip>
        ) : (
          <Text size="xs" c={entry.awaiting_me ? "blue" : "dimmed"} data-testid="review-asset-mine">
            {entry.awaiting_me ? "Awaiting your decision" : "No decision from you"}
          </Text>
        )}
      </Stack>
    </UnstyledButton>
  );
}
