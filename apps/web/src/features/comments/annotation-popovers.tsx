import type { Comment } from "@hangar/contract";
import { Box, Button, CloseButton, Group, Paper, Portal, Text, Textarea } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { relativeTime } from "../../entities/format";
import { UserAvatar } from "../../ui/user-avatar";
import { useCommentMutations } from "./api";
import { boundsOf as drawingBounds, rangeTime, roundMs } from "./drawing/tools";
import { type Draft, type Review, useReview } from "./review-context";
import { popoverPosition } from "./review-math";

/**
 * The area a popover keeps inside: the viewer's picture area (`data-annotation-bounds`, which on a
 * phone ends where the sheet of comments starts), else the viewport.
 */
function areaOf(el: HTMLElement) {
  const stage = el.closest("[data-annotation-bounds]");
  if (!stage) return { width: window.innerWidth, height: window.innerHeight };
  const r = stage.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
}

/** Follows an element's on-screen box while `on` (zoom, pan and resizing move it). */
function useFixedPosition(el: HTMLElement | null, on: boolean) {
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  useEffect(() => {
    if (!on || !el) {
      setPos(null);
      return;
    }
    let frame = 0;
    let last = "";
    const tick = () => {
      const r = el.getBoundingClientRect();
      const next = popoverPosition(r, areaOf(el));
      const key = `${next.left},${next.top}`;
      if (key !== last) {
        last = key;
        setPos(next);
      }
      frame = requestAnimationFrame(tick);
    };
    tick();
    return () => cancelAnimationFrame(frame);
  }, [el, on]);
  return pos;
}

export function AnnotationPopover(props: {
  anchor: HTMLElement | null;
  comment: Comment;
  open: boolean;
  onClose(): void;
}) {
  const pos = useFixedPosition(props.anchor, props.open);
  if (!props.open || !pos) return null;
  const c = props.comment;
  return (
    <Portal>
      <Paper
        shadow="lg"
        radius="md"
        p="sm"
        withBorder
        role="dialog"
        aria-label={`Annotation by ${c.author_display}`}
        data-testid="annotation-popover"
        style={{ position: "fixed", left: pos.left, top: pos.top, width: 300, minHeight: 150, zIndex: 400 }}
      >
        <Group justify="space-between" wrap="nowrap" mb={6}>
          <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
            <UserAvatar person={c.author ?? { first_name: c.author_display }} size={26} />
            <div style={{ minWidth: 0 }}>
              <Text size="sm" fw={600} truncate="end">
                {c.author_display}
              </Text>
              <Text size="xs" c="dimmed" title={new Date(c.created_at).toLocaleString()}>
                {relativeTime(c.created_at)}
              </Text>
            </div>
          </Group>
          <CloseButton size="sm" aria-label="Close annotation" onClick={props.onClose} />
        </Group>
        <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} lineClamp={6}>
          {c.text}
        </Text>
        {c.reply_count > 0 && (
          <Text size="xs" c="dimmed" mt={6}>
            {c.reply_count} {c.reply_count === 1 ? "reply" : "replies"} in Comments
          </Text>
        )}
      </Paper>
    </Portal>
  );
}

/** The text box of a drawn annotation (spec 02 §4): Enter submits, Escape cancels. */
export function DraftBox() {
  const review = useReview()!;
  const anchor = useRef<HTMLDivElement>(null);
  const [text, setText] = useState("");
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  useEffect(() => setEl(anchor.current), []);
  const pos = useFixedPosition(el, true);
  const { create } = useCommentMutations(review);
  const draft = review.draft!;
  useEffect(() => {
    review.escapeBusy.current = true;
    return () => {
      review.escapeBusy.current = false;
    };
  }, [review.escapeBusy]);
  const cancel = () => review.setDraft(null);
  const submit = () => {
    const body = text.trim();
    if (!body || create.isPending) return;
    create.mutate(
      { text: body, ...placeOf(draft, review), board_id: review.boardId },
      {
        onSuccess: (created) => {
          review.setDraft(null);
          review.setRange(null);
          review.show(created.id); // the new annotation opens (spec 02 §4)
        },
        // Spec 02 §8: annotation create failures are only logged.
        onError: (error) => console.warn("Annotation create failed", error),
      },
    );
  };
  // Beside the drawn thing's right edge, level with its top.
  const box =
    draft.annotation_type === "DRAWING"
      ? drawingBounds(draft.shapes)
      : draft.annotation_type === "AREA"
        ? { x: draft.x, y: draft.y, width: draft.width, height: draft.height }
        : { x: draft.x, y: draft.y, width: 0, height: 0 };
  return (
    <>
      {/* The whole drawn box: the text box goes beside it, not over it. */}
      <Box
        ref={anchor}
        pos="absolute"
        left={`${box.x}%`}
        top={`${box.y}%`}
        w={`max(1px, ${box.width}%)`}
        h={`max(1px, ${"height" in box ? box.height : 0}%)`}
        style={{ pointerEvents: "none" }}
      />
      {pos && (
        <Portal>
          <Paper
            shadow="lg"
            radius="md"
            p="sm"
            withBorder
            data-escape-local
            data-testid="annotation-textbox"
            style={{ position: "fixed", left: pos.left, top: pos.top, width: 300, zIndex: 401 }}
          >
            <Textarea
              autoFocus
              autosize
              minRows={2}
              maxRows={6}
              placeholder={PLACEHOLDERS[draft.annotation_type]}
              aria-label="Annotation comment"
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              onKeyDown={(e) => {
                // Ctrl/⌘Z with nothing typed takes the last shape off (the text's own undo otherwise).
                if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z" && !text) {
                  e.preventDefault();
                  if (e.shiftKey) review.redo();
                  else review.undo();
                } else if (e.key === "Escape") {
                  e.preventDefault();
                  cancel();
                } else if (e.key === "Enter" && !e.shiftKey) {
                  e.preventDefault();
                  submit();
                }
              }}
            />
            <Group justify="flex-end" gap="xs" mt="xs">
              <Button size="xs" variant="default" onClick={cancel}>
                Cancel
              </Button>
              <Button size="xs" onClick={submit} disabled={!text.trim()} loading={create.isPending}>
                Post
              </Button>
            </Group>
          </Paper>
        </Portal>
      )}
    </>
  );
}

const PLACEHOLDERS = {
  POINT: "Comment on this spot…",
  AREA: "Comment on this area…",
  DRAWING: "Comment on this drawing…",
} as const;

/**
 * Where a new annotation is: its shape (a DRAWING sends its shapes and no x, y, width or height), its
 * page, and on a video its frame's time, or the in/out range when one is made (I and O).
 */
export function placeOf(draft: Draft, review: Pick<Review, "video" | "range">) {
  const v = review.video.current;
  const r = review.range;
  const time = r && r.out !== null ? rangeTime({ in: r.in, out: r.out }) : null;
  const stamp = v ? (time ?? { timestamp: roundMs(draft.timestamp ?? v.time()) }) : {};
  const shape =
    draft.annotation_type === "DRAWING"
      ? { annotation_type: "DRAWING" as const, shapes: draft.shapes }
      : draft.annotation_type === "AREA"
        ? { annotation_type: "AREA" as const, x: draft.x, y: draft.y, width: draft.width, height: draft.height }
        : { annotation_type: "POINT" as const, x: draft.x, y: draft.y };
  return { ...shape, page: draft.page, ...stamp };
}
