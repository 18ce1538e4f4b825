import { DECISION_LABELS, type ReviewDecision, STATUS_LABELS } from "@hangar/contract";
import { Anchor, Badge, Button, Group, Loader, Paper, Stack, Text, Title, Tooltip } from "@mantine/core";
import { Link, useSearchParams } from "react-router-dom";
import { relativeTime } from "../../../entities/format";
import { versionLabel } from "../../../entities/version";
import { errorMessage } from "../../../lib/api-client";
import { useAssetReviewHistory } from "./api";
import { STATUS_COLOURS } from "./decision-state";
import { REVIEW_PARAM } from "./member-decision";

const STATE_COLOURS: Record<string, string> = { ...STATUS_COLOURS, open: "blue", canceled: "gray" };

/**
 * The details tab's review history (issue 30): each review that held the asset, its state, and every
 * decision made on the asset in it (reviewer, decision, version, time, note). Decisions that no longer
 * count (replaced by a later one, or made on an older version) are dimmed, never hidden.
 */
export function ReviewHistory(props: {
  workspaceId: string;
  assetId: string;
  /** The asset's latest review (`approval`): the decision bar's unless the address names another. */
  latestReviewId: string | null;
}) {
  const { workspaceId, assetId } = props;
  const history = useAssetReviewHistory(workspaceId, assetId);
  const [params, setParams] = useSearchParams();
  // The review the decision bar is for now.
  const openReview = params.get(REVIEW_PARAM) ?? props.latestReviewId;
  const decideHere = (reviewId: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set(REVIEW_PARAM, reviewId);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  return (
    <Stack gap={6} data-testid="review-history">
      <Title order={3} c="dimmed" tt="uppercase" fz={11} lts={0.5}>
        Reviews
      </Title>
      {history.isPending ? (
        <Loader size="xs" aria-label="Loading the review history" />
      ) : history.isError ? (
        <Group gap="xs">
          <Text size="sm" c="red">
            {errorMessage(history.error, "Failed to load the review history")}
          </Text>
          <Button size="compact-xs" variant="subtle" onClick={() => void history.refetch()}>
            Retry
          </Button>
        </Group>
      ) : history.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          Not in any review yet.
        </Text>
      ) : (
        history.data.map(({ review, decisions }) => (
          <Paper key={review.id} withBorder radius="sm" p="xs" data-testid="review-history-item">
            <Stack gap={6}>
              <Group gap="xs" justify="space-between" wrap="nowrap" align="flex-start">
                <Anchor
                  component={Link}
                  to={`/w/${workspaceId}/reviews/${review.id}`}
                  size="sm"
                  fw={600}
                  style={{ minWidth: 0, wordBreak: "break-word" }}
                >
                  {review.title}
                </Anchor>
                <Badge
                  size="sm"
                  variant="light"
                  color={STATE_COLOURS[review.state] ?? "gray"}
                  style={{ flexShrink: 0 }}
                >
                  {STATUS_LABELS[review.state]}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed">
                {review.requested_by ? `Requested by ${review.requested_by.name} · ` : ""}
                {relativeTime(review.created_at)}
                {review.due_at ? ` · due ${new Date(review.due_at).toLocaleDateString()}` : ""}
              </Text>
              {decisions.length === 0 ? (
                <Text size="xs" c="dimmed">
                  No decision on this asset yet.
                </Text>
              ) : (
                <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: "none" }}>
                  {decisions.map((d) => (
                    <DecisionRow key={d.id} decision={d} />
                  ))}
                </Stack>
              )}
              {review.waiting_for_me > 0 && openReview !== review.id && (
                <Button size="compact-xs" variant="light" onClick={() => decideHere(review.id)}>
                  Decide in this review
                </Button>
              )}
            </Stack>
          </Paper>
        ))
      )}
    </Stack>
  );
}

function DecisionRow({ decision: d }: { decision: ReviewDecision }) {
  const row = (
    <Stack
      gap={0}
      component="li"
      style={{ opacity: d.counts ? 1 : 0.6 }}
      data-testid="review-history-decision"
      data-counts={d.counts}
    >
      <Group gap={6} wrap="wrap">
        <Text size="xs" fw={600}>
          {d.reviewer_name}
        </Text>
        <Badge size="xs" variant="light" color={STATUS_COLOURS[d.decision]}>
          {DECISION_LABELS[d.decision]}
        </Badge>
        <Text size="xs" c="dimmed" title={new Date(d.created_at).toLocaleString()}>
          {versionLabel(d.version_number)} · {relativeTime(d.created_at)}
        </Text>
      </Group>
      {d.note && (
        <Text size="xs" c="dimmed" style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
          “{d.note}”
        </Text>
      )}
    </Stack>
  );
  return d.counts ? (
    row
  ) : (
    <Tooltip label="Replaced by a later decision, or made on an older version" openDelay={300}>
      {row}
    </Tooltip>
  );
}
