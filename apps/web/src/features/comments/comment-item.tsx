import { COMMENT_MESSAGES, type Comment } from "@hangar/contract";
import { ActionIcon, Badge, Box, Button, Group, Menu, Text, Textarea, Tooltip } from "@mantine/core";
import {
  IconCheck,
  IconDots,
  IconFileText,
  IconMapPin,
  IconPencil,
  IconPlayerPlay,
  IconTrash,
} from "@tabler/icons-react";
import { type MouseEvent, useEffect, useRef, useState } from "react";
import { relativeTime } from "../../entities/format";
import { errorMessage } from "../../lib/api-client";
import { openConfirm } from "../../lib/confirm-modal";
import { notifyError, notifySuccess } from "../../lib/notify";
import { UserAvatar } from "../../ui/user-avatar";
import { useCommentMutations } from "./api";
import { useReview } from "./review-context";
import { clock, mentionRuns } from "./review-math";
import { SEVERITY_STYLE } from "./severity";

/** Text as typed, never HTML; members it mentions highlighted. */
export function CommentText({ comment }: { comment: Comment }) {
  const runs = mentionRuns(
    comment.text,
    comment.mentions.map((m) => m.display),
  );
  return (
    <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} data-testid="comment-text">
      {runs.map((r, i) =>
        r.mention ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: runs of one text, in order
          <Text key={i} span c="blue" fw={600}>
            {r.text}
          </Text>
        ) : (
          r.text
        ),
      )}
    </Text>
  );
}

/** One comment (spec 02 §2 Comment drawer): who and when, where on the asset, the text, its actions. */
export function CommentItem(props: {
  comment: Comment;
  number?: number;
  /** The Reply button (top-level without replies, or the newest reply). */
  onReply?: () => void;
  reply?: boolean;
}) {
  const { comment: c } = props;
  const review = useReview()!;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(c.text);
  const m = useCommentMutations(review);
  const edited = c.updated_at !== c.created_at;
  const highlighted = review.highlightedId === c.id;
  const box = useRef<HTMLDivElement>(null);
  // The comment in view scrolls into the list's view (a mention's link, a click on a marker).
  useEffect(() => {
    if (highlighted) box.current?.scrollIntoView({ block: "center", behavior: "smooth" });
  }, [highlighted]);
  // A click anywhere on the comment (not on its buttons, menu or editor) goes where it was made.
  const onClick = (event: MouseEvent) => {
    if ((event.target as HTMLElement).closest("button, a, input, textarea, [role='menuitem']") || editing) return;
    review.focus(c);
  };

  const save = () => {
    const text = draft.trim();
    if (!text) return;
    if (text === c.text) {
      setEditing(false);
      return;
    }
    m.update.mutate(
      { id: c.id, text, mentions: c.mentions.filter((x) => text.includes(`@${x.display}`)).map((x) => x.user_id) },
      {
        onSuccess: () => {
          setEditing(false);
          notifySuccess(COMMENT_MESSAGES.updated);
        },
        onError: (error) => notifyError(errorMessage(error, COMMENT_MESSAGES.updateFailed)),
      },
    );
  };
  const confirmDelete = () =>
    openConfirm({
      title: COMMENT_MESSAGES.deleteTitle,
      children: <Text size="sm">{COMMENT_MESSAGES.deleteBody}</Text>,
      labels: { confirm: "Delete", cancel: "Cancel" },
      confirmProps: { color: "red", "data-testid": "confirm-delete-comment" },
      onConfirm: () =>
        m.remove.mutate(c.id, {
          onSuccess: () => notifySuccess(COMMENT_MESSAGES.deleted),
          onError: (error) => notifyError(errorMessage(error, COMMENT_MESSAGES.deleteFailed)),
        }),
    });
  const resolve = () =>
    m.resolve.mutate(
      { id: c.id, resolved: !c.resolved },
      { onError: (error) => notifyError(errorMessage(error, "Failed to update the thread")) },
    );

  const place = [
    c.page ? { icon: <IconFileText size={12} />, label: `Page ${c.page}` } : null,
    c.timestamp !== null
      ? {
          icon: <IconPlayerPlay size={12} />,
          label: c.duration ? `${clock(c.timestamp)}–${clock(c.timestamp + c.duration)}` : clock(c.timestamp),
        }
      : null,
    c.annotation_type !== "NONE" && !c.page
      ? {
          icon: c.annotation_type === "DRAWING" ? <IconPencil size={12} /> : <IconMapPin size={12} />,
          label: PLACE_LABELS[c.annotation_type],
        }
      : null,
  ].filter((x) => x !== null);

  return (
    <Box
      ref={box}
      data-testid={props.reply ? "comment-reply" : "comment"}
      data-comment-id={c.id}
      data-highlighted={highlighted || undefined}
      ml={props.reply ? 36 : 0}
      p={4}
      onClick={onClick}
      onMouseEnter={c.annotation_type === "DRAWING" ? () => review.hovered.set(c.id) : undefined}
      onMouseLeave={c.annotation_type === "DRAWING" ? () => review.hovered.set(null) : undefined}
      style={{
        cursor: "pointer",
        borderRadius: "var(--mantine-radius-sm)",
        background: highlighted ? "var(--mantine-color-yellow-light)" : undefined,
        boxShadow: highlighted ? "inset 3px 0 0 var(--mantine-color-yellow-6)" : undefined,
        transition: "background 300ms",
      }}
    >
      <Group gap={8} wrap="nowrap" align="flex-start">
        <UserAvatar person={c.author ?? { first_name: c.author_display }} size={props.reply ? 24 : 28} />
        <Box style={{ flex: 1, minWidth: 0 }}>
          <Group gap={6} wrap="nowrap" justify="space-between">
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              {props.number !== undefined && (
                <Badge size="xs" circle color={SEVERITY_STYLE[c.severity].color} data-testid="comment-number">
                  {props.number}
                </Badge>
              )}
              <Text size="sm" fw={600} truncate="end">
                {c.author_display}
              </Text>
              {review.allVersions && c.version && (
                <Tooltip label={`Made on v${c.version.number}: show it`}>
                  <Badge
                    size="xs"
                    variant={c.version.id === review.version?.id ? "filled" : "light"}
                    color="gray"
                    tt="none"
                    component="button"
                    type="button"
                    style={{ flexShrink: 0, cursor: "pointer" }}
                    onClick={() => review.focus(c)}
                    data-testid="comment-version"
                  >
                    v{c.version.number}
                  </Badge>
                </Tooltip>
              )}
              {c.share_link_id && !review.shared && (
                <Tooltip label="Written by a visitor of a share link">
                  <Badge
                    size="xs"
                    variant="light"
                    color="gray"
                    style={{ flexShrink: 0 }}
                    data-testid="comment-via-link"
                  >
                    via link
                  </Badge>
                </Tooltip>
              )}
              <Tooltip label={new Date(c.created_at).toLocaleString()}>
                <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                  {relativeTime(c.created_at)}
                  {edited && " · edited"}
                </Text>
              </Tooltip>
            </Group>
            {(c.abilities.edit || c.abilities.delete) && !editing && (
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <ActionIcon variant="subtle" color="gray" size="sm" aria-label="Comment actions">
                    <IconDots size={14} />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  {c.abilities.edit && (
                    <Menu.Item
                      leftSection={<IconPencil size={14} />}
                      onClick={() => {
                        setDraft(c.text);
                        setEditing(true);
                      }}
                    >
                      Edit
                    </Menu.Item>
                  )}
                  {c.abilities.delete && (
                    <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={confirmDelete}>
                      Delete
                    </Menu.Item>
                  )}
                </Menu.Dropdown>
              </Menu>
            )}
          </Group>
          {(place.length > 0 || c.severity !== "none") && (
            <Group gap={4} mt={2}>
              {c.severity !== "none" && (
                <Badge size="xs" variant="light" color={SEVERITY_STYLE[c.severity].color}>
                  {SEVERITY_STYLE[c.severity].label}
                </Badge>
              )}
              {place.map((p) => (
                <Badge
                  key={p.label}
                  size="xs"
                  variant="outline"
                  color="gray"
                  leftSection={p.icon}
                  component="button"
                  type="button"
                  style={{ cursor: "pointer" }}
                  onClick={() => review.focus(c)}
                  data-testid="comment-place"
                >
                  {p.label}
                </Badge>
              ))}
            </Group>
          )}
          {editing ? (
            <Box mt={4} data-escape-local>
              <Textarea
                autoFocus
                autosize
                minRows={1}
                maxRows={8}
                aria-label="Edit comment"
                value={draft}
                onChange={(e) => setDraft(e.currentTarget.value)}
                onKeyDown={(e) => {
                  if (e.key === "Escape") {
                    e.preventDefault();
                    setEditing(false);
                  } else if (e.key === "Enter" && !e.shiftKey) {
                    e.preventDefault();
                    save();
                  }
                }}
              />
              <Group gap="xs" mt={6} justify="flex-end">
                <Button size="compact-xs" variant="default" onClick={() => setEditing(false)}>
                  Cancel
                </Button>
                <Button size="compact-xs" onClick={save} disabled={!draft.trim()} loading={m.update.isPending}>
                  Save
                </Button>
              </Group>
            </Box>
          ) : (
            <Box mt={2}>
              <CommentText comment={c} />
            </Box>
          )}
          {!editing && (props.onReply || (!props.reply && c.abilities.resolve)) && (
            <Group gap={4} mt={4}>
              {props.onReply && (
                <Button size="compact-xs" variant="subtle" color="gray" onClick={props.onReply}>
                  Reply
                </Button>
              )}
              {!props.reply && c.abilities.resolve && (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color={c.resolved ? "gray" : "teal"}
                  leftSection={<IconCheck size={12} />}
                  onClick={resolve}
                  loading={m.resolve.isPending}
                >
                  {c.resolved ? "Reopen" : "Resolve"}
                </Button>
              )}
            </Group>
          )}
        </Box>
      </Group>
    </Box>
  );
}

const PLACE_LABELS = { POINT: "Point", AREA: "Area", DRAWING: "Drawing" } as const;
