import { Anchor, Button, Group, Menu, Paper, Skeleton, Stack, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconBan, IconDownload, IconPencil, IconRefresh } from "@tabler/icons-react";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import {
  formatWhen,
  progressText,
  REVIEW_PARAM,
  ReviewStateBadge,
  reviewReportUrl,
  useCancelReview,
  useLiveReviews,
  useReopenReview,
  useReview,
} from "../../../entities/review";
import { useCurrentWorkspace } from "../../../entities/workspace";
import { errorMessage, isApiError } from "../../../lib/api-client";
import { openConfirm } from "../../../lib/confirm-modal";
import { lazyNamed, WhenOpened } from "../../../lib/deferred";
import { notifyError, notifySuccess } from "../../../lib/notify";
import { ErrorState } from "../../../ui/error-state";
import { NotFoundState } from "../../../ui/not-found-state";
import { ReviewAssets } from "../components/review-assets";
import { ReviewHistory } from "../components/review-history";
import { ReviewStages } from "../components/review-stages";

// The dialog loads the first time Edit is pressed: not part of the page's own chunk.
const RequestReviewDialog = lazyNamed(() => import("../request/request-review-dialog"), "RequestReviewDialog");

const isMissing = (error: unknown) => isApiError(error) && [400, 404, 422].includes(error.status);

/**
 * /w/:id/reviews/:reviewId — one review: its state and progress, the stages with their reviewers,
 * each asset with every reviewer's decision (an asset opens in the viewer with `?review=`), the
 * history; the requester and admins edit (words, due date, stages, lock), cancel and reopen; everyone
 * downloads the report.
 */
export function ReviewPage() {
  const { reviewId = "" } = useParams();
  const workspace = useCurrentWorkspace();
  const navigate = useNavigate();
  const query = useReview(workspace.id, reviewId);
  const cancel = useCancelReview(workspace.id, reviewId);
  const reopen = useReopenReview(workspace.id, reviewId);
  useLiveReviews(workspace.id);
  const [editing, setEditing] = useState(false);
  const base = `/w/${workspace.id}/reviews`;

  const back = (
    <Anchor component={Link} to={base} size="sm" c="dimmed" w="fit-content">
      <Group gap={4} wrap="nowrap">
        <IconArrowLeft size={14} aria-hidden />
        Reviews
      </Group>
    </Anchor>
  );

  if (query.isPending) {
    return (
      <Stack gap="md" role="status" aria-label="Loading review">
        {back}
        <Skeleton height={32} width={320} />
        <Skeleton height={16} width={240} />
        <Skeleton height={140} mt="md" />
      </Stack>
    );
  }
  if (query.isError) {
    if (isMissing(query.error))
      return (
        <NotFoundState
          title="Review not found"
          description="This review does not exist, or belongs to another workspace."
          backTo={base}
          backLabel="Back to reviews"
        />
      );
    return (
      <Stack gap="md">
        {back}
        <ErrorState
          title="Review unavailable"
          message={errorMessage(query.error, "Failed to fetch the review")}
          onRetry={() => query.refetch()}
          retrying={query.isFetching}
        />
      </Stack>
    );
  }

  const review = query.data;
  const canceled = review.state === "canceled";
  const overdue = review.overdue && !review.done && !canceled;
  const openAsset = (assetId: string) =>
    // The viewer closes back here (as it does to the grid it was opened from).
    navigate(
      { pathname: `/w/${workspace.id}/a/${assetId}`, search: `?${REVIEW_PARAM}=${review.id}` },
      { state: { fromGrid: true } },
    );
  const doReopen = (assetIds?: string[]) =>
    reopen.mutate(assetIds, {
      onSuccess: () => notifySuccess("Review reopened"),
      onError: (error) => notifyError(errorMessage(error, "Failed to reopen the review")),
    });
  const askCancel = () =>
    void openConfirm({
      title: "Cancel this review?",
      children: (
        <Text size="sm">
          Reviewers are no longer asked to decide. The decisions made so far stay in the record; the review can be
          reopened.
        </Text>
      ),
      labels: { confirm: "Cancel review", cancel: "Keep it" },
      confirmProps: { color: "red" },
      onConfirm: () =>
        cancel.mutate(undefined, {
          onSuccess: () => notifySuccess("Review canceled"),
          onError: (error) => notifyError(errorMessage(error, "Failed to cancel the review")),
        }),
    });

  return (
    <Stack gap="lg" data-testid="review-page">
      <WhenOpened open={editing}>
        <RequestReviewDialog
          workspaceId={workspace.id}
          opened={editing}
          onClose={() => setEditing(false)}
          editing={review}
          subject=""
        />
      </WhenOpened>
      <Stack gap={6}>
        {back}
        <Group justify="space-between" align="flex-start" gap="md">
          <Stack gap={6} miw={0} style={{ flex: 1 }}>
            <Group gap="sm" wrap="wrap">
              <Title order={1} size="h2" style={{ overflowWrap: "anywhere" }}>
                {review.title}
              </Title>
              <ReviewStateBadge state={review.state} size="lg" data-testid="review-state" />
            </Group>
            <Group gap="md" style={{ rowGap: 2 }} wrap="wrap">
              <Text size="sm" c="dimmed">
                {review.requested_by ? `Requested by ${review.requested_by.name}` : "Requested"} on{" "}
                {formatWhen(review.created_at)}
              </Text>
              {review.due_at && (
                <Text size="sm" c={overdue ? "red" : "dimmed"} fw={overdue ? 600 : undefined}>
                  {overdue ? "Overdue: was due " : "Due "}
                  {formatWhen(review.due_at)}
                </Text>
              )}
              <Text size="sm" c="dimmed" data-testid="review-progress">
                {progressText(review.progress)}
              </Text>
              {review.lock_on_approval && (
                <Text size="sm" c="dimmed">
                  Approved assets lock
                </Text>
              )}
            </Group>
          </Stack>
          <Group gap="xs">
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button variant="default" leftSection={<IconDownload size={16} />} data-testid="review-report">
                  Report
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item component="a" href={reviewReportUrl(workspace.id, review.id, "pdf")} download>
                  Download PDF
                </Menu.Item>
                <Menu.Item component="a" href={reviewReportUrl(workspace.id, review.id, "csv")} download>
                  Download CSV
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
            {review.abilities.edit && !canceled && !review.done && (
              <Button
                variant="default"
                leftSection={<IconPencil size={16} />}
                onClick={() => setEditing(true)}
                data-testid="review-edit"
              >
                Edit
              </Button>
            )}
            {review.abilities.reopen && (canceled || review.done) && (
              <Button
                variant="default"
                leftSection={<IconRefresh size={16} />}
                onClick={() => doReopen()}
                loading={reopen.isPending}
                data-testid="review-reopen"
              >
                Reopen
              </Button>
            )}
            {review.abilities.cancel && (
              <Button
                variant="light"
                color="red"
                leftSection={<IconBan size={16} />}
                onClick={askCancel}
                loading={cancel.isPending}
                data-testid="review-cancel"
              >
                Cancel review
              </Button>
            )}
          </Group>
        </Group>
      </Stack>

      {review.message && (
        <Paper withBorder radius="md" p="sm" bg="var(--mantine-color-gray-0)">
          <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
            {review.message}
          </Text>
        </Paper>
      )}

      <Stack gap="xs">
        <Title order={2} size="h4">
          Stages
        </Title>
        <ReviewStages review={review} />
      </Stack>

      <Stack gap="xs">
        <Title order={2} size="h4">
          Assets ({review.assets.length})
        </Title>
        <ReviewAssets
          review={review}
          onOpen={openAsset}
          onReopen={review.abilities.reopen && !canceled ? (id) => doReopen([id]) : undefined}
          reopening={reopen.isPending}
        />
      </Stack>

      <Stack gap="xs">
        <Title order={2} size="h4">
          History
        </Title>
        <ReviewHistory review={review} />
      </Stack>
    </Stack>
  );
}
