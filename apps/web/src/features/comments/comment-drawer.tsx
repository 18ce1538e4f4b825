import {
  API_PREFIX,
  COMMENT_MESSAGES,
  COMMENT_SCROLL_DELAY_MS,
  type Comment,
  commentsApi,
  showRepliesLabel,
  VIEWER_MESSAGES,
} from "@hangar/contract";
import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Collapse,
  Divider,
  Group,
  Loader,
  Menu,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  Tooltip,
} from "@mantine/core";
import { IconDownload, IconMessageCircle } from "@tabler/icons-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { errorMessage, routeUrl } from "../../lib/api-client";
import { notifyError, notifySuccess } from "../../lib/notify";
import { annotationNumbers } from "./annotation-layer";
import { type CommentScope, isCancelled, useCommentMutations, useReplies, useTopComments } from "./api";
import { CommentItem } from "./comment-item";
import { useCommentTarget } from "./comment-target";
import { ComposeBox, type ComposeValue } from "./compose-box";
import { roundMs } from "./drawing/tools";
import { useLiveAsset } from "./live";
import { useReview } from "./review-context";

/**
 * The comment drawer (spec 02 §2, §4, §8): the asset's threads oldest first, replies behind "Show N
 * replies", a compose box, the view-only notice where the user cannot comment, the store error with
 * Retry, and every toast of §8. Resolved threads fold into their own section. Kept live by the
 * workspace's event stream.
 */
export function CommentDrawer(props: { shared?: boolean }) {
  const review = useReview()!;
  const { workspaceId, asset, boardId } = review;
  const [scope, setScope] = useState<CommentScope>(boardId ?? "global");
  useEffect(() => setScope(boardId ?? "global"), [boardId]);
  const top = useTopComments(review, scope);
  const { create } = useCommentMutations(review);
  const end = useRef<HTMLDivElement>(null);
  useLiveAsset(review.shared ? null : workspaceId, asset.id);
  const shared = props.shared ?? review.shared !== null;

  const threads = useMemo(() => top.data?.pages.flatMap((p) => p.results) ?? [], [top.data]);
  const { setThreads } = review;
  useEffect(() => setThreads(threads), [threads, setThreads]);
  const numbers = annotationNumbers(threads);
  const open = threads.filter((c) => !c.resolved);
  const resolved = threads.filter((c) => c.resolved);
  const [showResolved, setShowResolved] = useState(false);
  const { expandThreadId } = useCommentTarget({
    review,
    threads,
    scope,
    setScope,
    top,
    showResolved: useCallback(() => setShowResolved(true), []),
  });

  const scrollToEnd = () =>
    setTimeout(() => end.current?.scrollIntoView({ behavior: "smooth", block: "end" }), COMMENT_SCROLL_DELAY_MS);

  const post = async (v: ComposeValue) => {
    try {
      await create.mutateAsync({
        text: v.text,
        severity: v.severity,
        mentions: v.mentions,
        board_id: boardId,
        fallback: COMMENT_MESSAGES.postFailed,
        ...(v.timestamp !== null ? { timestamp: v.timestamp } : {}),
        ...(v.duration !== null ? { duration: v.duration } : {}),
        ...(asset.pages.length > 0 ? { page: review.currentPage } : {}),
      });
      notifySuccess(COMMENT_MESSAGES.posted);
      if (v.duration !== null) review.setRange(null);
      scrollToEnd();
      return true;
    } catch (error) {
      if (!isCancelled(error)) notifyError(errorMessage(error, COMMENT_MESSAGES.postFailed));
      return false;
    }
  };
  const pausedTime = () => {
    const v = review.video.current;
    return v?.paused() ? roundMs(v.time()) : null;
  };
  const exportUrl = (format: "csv" | "pdf") =>
    `${API_PREFIX}${routeUrl(commentsApi.export, { id: workspaceId })}?content_type=asset&object_id=${asset.id}&format=${format}`;

  return (
    <Stack gap="sm" h="100%" data-testid="comments-panel">
      <Group justify="space-between" wrap="nowrap">
        <Text fw={650}>Comments</Text>
        <Group gap={4} wrap="nowrap">
          {review.canComment && (
            <Tooltip label="Click or drag on the picture to annotate">
              <Switch
                size="xs"
                label="Annotate"
                checked={review.annotating}
                onChange={(e) => review.setAnnotating(e.currentTarget.checked)}
                data-testid="annotate-switch"
              />
            </Tooltip>
          )}
          {!shared && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="subtle" color="gray" aria-label="Export comments">
                  <IconDownload size={16} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item component="a" href={exportUrl("csv")} download>
                  Export as CSV
                </Menu.Item>
                <Menu.Item component="a" href={exportUrl("pdf")} download>
                  Export PDF report
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Group>
      {!shared && (
        <SegmentedControl
          size="xs"
          fullWidth
          value={scope === "all" ? "all" : "here"}
          onChange={(v) => setScope(v === "all" ? "all" : (boardId ?? "global"))}
          data={[
            { value: "here", label: boardId ? "This board" : "All Assets & Files" },
            { value: "all", label: "Every comment" },
          ]}
          aria-label="Which comments"
        />
      )}
      {review.version && (asset.version_count ?? 1) > 1 && (
        <Switch
          size="xs"
          label="All versions"
          description={review.allVersions ? "Every version's comments" : `v${review.version.number}'s comments only`}
          checked={review.allVersions}
          onChange={(e) => review.setAllVersions(e.currentTarget.checked)}
          data-testid="all-versions-switch"
        />
      )}

      {top.isError && (
        <Alert color="red" variant="light" data-testid="comments-error">
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">{errorMessage(top.error, COMMENT_MESSAGES.fetchFailed)}</Text>
            <Button size="compact-xs" variant="light" color="red" onClick={() => void top.refetch()}>
              {COMMENT_MESSAGES.retry}
            </Button>
          </Group>
        </Alert>
      )}
      {top.isPending ? (
        <Group justify="center" py="xl">
          <Loader size="sm" />
        </Group>
      ) : threads.length === 0 && !top.isError ? (
        <Stack align="center" gap={4} py="xl" data-testid="comments-empty">
          <IconMessageCircle size={32} color="var(--mantine-color-gray-5)" />
          <Text fw={600}>{VIEWER_MESSAGES.noComments}</Text>
          <Text size="sm" c="dimmed">
            {VIEWER_MESSAGES.noCommentsDetail}
          </Text>
        </Stack>
      ) : (
        <Stack gap="md" data-testid="comment-list">
          {open.map((c) => (
            <Thread key={c.id} comment={c} number={numbers.get(c.id)} expand={expandThreadId === c.id} />
          ))}
          {resolved.length > 0 && (
            <Box>
              <Divider
                label={
                  <Button size="compact-xs" variant="subtle" color="gray" onClick={() => setShowResolved((s) => !s)}>
                    {showResolved ? "Hide" : "Show"} {resolved.length} resolved
                  </Button>
                }
              />
              <Collapse expanded={showResolved}>
                <Stack gap="md" mt="sm" data-testid="resolved-threads" style={{ opacity: 0.75 }}>
                  {resolved.map((c) => (
                    <Thread key={c.id} comment={c} number={numbers.get(c.id)} expand={expandThreadId === c.id} />
                  ))}
                </Stack>
              </Collapse>
            </Box>
          )}
          {top.hasNextPage && (
            <Button
              variant="subtle"
              size="xs"
              loading={top.isFetchingNextPage}
              onClick={() => void top.fetchNextPage()}
            >
              Show more comments
            </Button>
          )}
        </Stack>
      )}
      <div ref={end} />
      <Box mt="auto" pt="xs" style={{ position: "sticky", bottom: 0, background: "var(--mantine-color-body)" }}>
        {review.canComment ? (
          <ComposeBox
            workspaceId={workspaceId}
            placeholder="Add a comment…"
            busy={create.isPending}
            withSeverity
            mentions={!shared}
            videoTime={pausedTime}
            videoRange={review.range?.out != null ? { in: review.range.in, out: review.range.out } : null}
            onClearRange={() => review.setRange(null)}
            onSubmit={post}
            testId="comment-compose"
          />
        ) : (
          <Alert variant="light" color="gray" data-testid="comments-view-only">
            {shared ? COMMENT_MESSAGES.viewOnlyShared : "Comments are view-only for you here"}
          </Alert>
        )}
      </Box>
    </Stack>
  );
}

/** A top-level comment and, behind its toggle, every reply of its thread (flat, oldest first). */
function Thread({ comment, number, expand }: { comment: Comment; number?: number; expand?: boolean }) {
  const review = useReview()!;
  const [expanded, setExpanded] = useState(false);
  // A mention's link to one of its replies unfolds the thread.
  useEffect(() => {
    if (expand) setExpanded(true);
  }, [expand]);
  const [replying, setReplying] = useState(false);
  const replies = useReplies(review, comment.id, expanded && comment.reply_count > 0);
  const { create } = useCommentMutations(review);
  useEffect(() => {
    if (replies.isError) notifyError(COMMENT_MESSAGES.repliesFailed);
  }, [replies.isError]);
  const list = replies.data ?? [];
  const newest = list[list.length - 1];
  const canReply = review.canComment && comment.abilities.reply;

  const reply = async (v: ComposeValue) => {
    try {
      await create.mutateAsync({
        text: v.text,
        mentions: v.mentions,
        parent_id: newest?.id ?? comment.id,
        fallback: COMMENT_MESSAGES.replyFailed,
      });
      notifySuccess(COMMENT_MESSAGES.replyPosted);
      setReplying(false);
      setExpanded(true);
      return true;
    } catch (error) {
      if (!isCancelled(error)) notifyError(errorMessage(error, COMMENT_MESSAGES.replyFailed));
      return false;
    }
  };

  return (
    <Stack gap={6} data-testid="comment-thread" data-thread-id={comment.id}>
      <CommentItem
        comment={comment}
        number={number}
        onReply={canReply && comment.reply_count === 0 ? () => setReplying(true) : undefined}
      />
      {comment.reply_count > 0 && (
        <Button
          variant="subtle"
          size="compact-xs"
          ml={36}
          w="fit-content"
          onClick={() => setExpanded((e) => !e)}
          data-testid="toggle-replies"
        >
          {expanded ? COMMENT_MESSAGES.hideReplies : showRepliesLabel(comment.reply_count)}
        </Button>
      )}
      {expanded && replies.isPending && <Loader size="xs" ml={36} />}
      {expanded &&
        list.map((r) => (
          <CommentItem
            key={r.id}
            comment={r}
            reply
            onReply={canReply && r.id === newest?.id ? () => setReplying(true) : undefined}
          />
        ))}
      {replying && (
        <Box pl={36}>
          <ComposeBox
            workspaceId={review.workspaceId}
            placeholder="Reply…"
            autoFocus
            busy={create.isPending}
            submitLabel="Send reply"
            mentions={review.shared === null}
            onSubmit={reply}
            onCancel={() => setReplying(false)}
            testId="reply-compose"
          />
        </Box>
      )}
    </Stack>
  );
}

/**
 * The threads the picture's markers and drawings need while the drawer is closed (a phone's viewer
 * without its sheet, or another tab open): the drawer's own query in its default scope, kept live.
 */
export function ReviewThreads() {
  const review = useReview()!;
  const top = useTopComments(review, review.boardId ?? "global");
  useLiveAsset(review.shared ? null : review.workspaceId, review.asset.id);
  const threads = useMemo(() => top.data?.pages.flatMap((p) => p.results) ?? [], [top.data]);
  const { setThreads } = review;
  useEffect(() => setThreads(threads), [threads, setThreads]);
  return null;
}
