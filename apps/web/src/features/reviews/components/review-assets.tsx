import { DECISION_LABELS, type Review, type ReviewAssetEntry } from "@hangar/contract";
import { Badge, Box, Button, Group, Paper, Stack, Text, Tooltip, UnstyledButton } from "@mantine/core";
import { IconLock, IconRefresh } from "@tabler/icons-react";
import { AssetThumb } from "../../../entities/asset";
import { REVIEW_COLORS, ReviewStateBadge } from "../../../entities/review";

/**
 * The review's assets: thumbnail and name (opening the asset in the viewer with the review), its
 * version, status and lock, then each stage's reviewers with their decision on the current version
 * (and its note). `onReopen`: the requester's or an admin's "start this asset over".
 */
export function ReviewAssets({
  review,
  onOpen,
  onReopen,
  reopening,
}: {
  review: Review;
  onOpen(assetId: string): void;
  onReopen?: (assetId: string) => void;
  reopening: boolean;
}) {
  const names = new Map(review.stages.flatMap((s) => s.reviewers.map((r) => [r.id, r.name] as const)));
  const waitingForMe = new Set(review.me.waiting);
  return (
    <Stack gap="xs" data-testid="review-assets">
      {review.assets.map((entry) => (
        <AssetRow
          key={entry.asset_id}
          review={review}
          entry={entry}
          names={names}
          mine={waitingForMe.has(entry.asset_id)}
          onOpen={() => onOpen(entry.asset_id)}
          onReopen={onReopen && entry.status !== "in_review" ? () => onReopen(entry.asset_id) : undefined}
          reopening={reopening}
        />
      ))}
    </Stack>
  );
}

function AssetRow({
  review,
  entry,
  names,
  mine,
  onOpen,
  onReopen,
  reopening,
}: {
  review: Review;
  entry: ReviewAssetEntry;
  names: Map<string, string>;
  mine: boolean;
  onOpen(): void;
  onReopen?: () => void;
  reopening: boolean;
}) {
  const cells = new Map(entry.cells.map((c) => [c.reviewer_id, c]));
  const gone = entry.asset === null;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="review-asset" data-asset-id={entry.asset_id}>
      <Group align="flex-start" wrap="nowrap" gap="sm">
        <UnstyledButton
          onClick={onOpen}
          disabled={gone}
          aria-label={`Open ${entry.name}`}
          style={{ flexShrink: 0, borderRadius: 8, overflow: "hidden" }}
        >
          <Box w={{ base: 64, sm: 88 }} h={{ base: 64, sm: 88 }}>
            <AssetThumb asset={entry.asset} fileType={entry.asset?.file_type ?? "OTHER"} iconSize={24} />
          </Box>
        </UnstyledButton>
        <Stack gap={6} miw={0} style={{ flex: 1 }}>
          <Group gap="xs" wrap="wrap" style={{ rowGap: 4 }}>
            <UnstyledButton onClick={onOpen} disabled={gone} miw={0} maw="100%">
              <Text fw={600} size="sm" truncate="end" td={gone ? "line-through" : undefined}>
                {entry.name}
              </Text>
            </UnstyledButton>
            <Badge size="xs" variant="default" tt="none">
              v{entry.current_version.number}
            </Badge>
            <ReviewStateBadge state={entry.status} size="sm" data-testid="review-asset-status" />
            {entry.locked && (
              <Tooltip label="Approved and locked: no new version until it is reopened">
                <IconLock size={14} aria-label="Locked" />
              </Tooltip>
            )}
            {mine && (
              <Badge size="sm" color="blue" variant="filled" tt="none">
                Waiting for you
              </Badge>
            )}
          </Group>
          {review.stages.map((stage) => (
            <Group key={stage.index} gap={6} style={{ rowGap: 4 }} wrap="wrap" align="flex-start">
              {review.stages.length > 1 && (
                <Text size="xs" c="dimmed" w={56}>
                  Stage {stage.index + 1}
                </Text>
              )}
              {stage.reviewers.map((r) => {
                const cell = cells.get(r.id);
                const decision = cell?.decision ?? null;
                const label = decision
                  ? DECISION_LABELS[decision]
                  : stage.state === "waiting"
                    ? "Not started"
                    : entry.awaiting.includes(r.id)
                      ? "Pending"
                      : "—";
                return (
                  <Tooltip
                    key={r.id}
                    label={cell?.note ? `“${cell.note}”` : label}
                    multiline
                    maw={280}
                    disabled={!cell?.note}
                  >
                    <Badge
                      size="sm"
                      variant={decision ? "light" : "outline"}
                      color={decision ? REVIEW_COLORS[decision] : "gray"}
                      tt="none"
                      data-testid="review-cell"
                    >
                      {names.get(r.id) ?? "Reviewer"}: {label}
                    </Badge>
                  </Tooltip>
                );
              })}
            </Group>
          ))}
          {entry.cells
            .filter((c) => c.note)
            .map((c) => (
              <Text key={c.reviewer_id} size="xs" c="dimmed" lineClamp={2}>
                {names.get(c.reviewer_id) ?? "Reviewer"}: “{c.note}”
              </Text>
            ))}
        </Stack>
        {onReopen && (
          <Tooltip label="Start the active stage over for this asset">
            <Button
              size="compact-xs"
              variant="subtle"
              leftSection={<IconRefresh size={12} />}
              onClick={onReopen}
              loading={reopening}
              style={{ flexShrink: 0 }}
            >
              Reopen
            </Button>
          </Tooltip>
        )}
      </Group>
    </Paper>
  );
}
