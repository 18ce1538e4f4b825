import type { Comment } from "@hangar/contract";
import { Box, Button, CloseButton, Group, Paper, Portal, Text, Textarea, UnstyledButton } from "@mantine/core";
import { type PointerEvent as ReactPointerEvent, useEffect, useRef, useState } from "react";
import { relativeTime } from "../../entities/format";
import { UserAvatar } from "../../ui/user-avatar";
import { useCommentMutations } from "./api";
import { useReview } from "./review-context";
import { popoverPosition, shapeOf, toPercent } from "./review-math";
import { SEVERITY_STYLE } from "./severity";

type Point = { x: number; y: number };

/** Numbers of the annotated threads, in thread order (the drawer shows the same numbers). */
export function annotationNumbers(threads: Comment[]): Map<string, number> {
  return new Map(threads.filter((c) => c.annotation_type !== "NONE").map((c, i) => [c.id, i + 1]));
}

/**
 * The area a popover keeps inside: the viewer's picture area (`data-annotation-bounds`, which on a
 * phone ends where the sheet of comments starts), else the viewport.
 */
function boundsOf(el: HTMLElement) {
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
      const next = popoverPosition(r, boundsOf(el));
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

/**
 * Annotations drawn over a picture (an image, or one document page), inside the zoom transform so
 * they stay on their spot through zoom, pan and resizing (spec 02 §4): markers of the open threads,
 * drawing a POINT or an AREA with the mouse, the text box for a new one, and the popover of the
 * visible one. Ctrl/Meta pans instead of drawing.
 */
export function AnnotationLayer({ page }: { page: number | null }) {
  const review = useReview();
  const box = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ start: Point; now: Point } | null>(null);
  if (!review) return null;
  const { threads, draft, visibleId } = review;
  const onThisPicture = (c: { page: number | null }) => (page === null ? true : (c.page ?? 1) === page);
  // Drawn on the version they were made on (issue 29): the drawer may list every version's.
  const shownVersion = review.version?.id;
  const onThisVersion = (c: Comment) => !shownVersion || !c.version || c.version.id === shownVersion;
  const numbers = annotationNumbers(threads);
  const markers = threads.filter(
    (c) => c.annotation_type !== "NONE" && !c.resolved && onThisPicture(c) && onThisVersion(c),
  );
  const drawing = review.annotating && review.canComment;

  const at = (e: ReactPointerEvent) => toPercent(box.current!.getBoundingClientRect(), e.clientX, e.clientY);
  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!drawing || e.button !== 0 || e.ctrlKey || e.metaKey) return; // Ctrl/Meta: the transform pans
    e.stopPropagation();
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    const p = at(e);
    setDrag({ start: p, now: p });
    review.escapeBusy.current = true;
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (drag) setDrag({ ...drag, now: at(e) });
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    const shape = shapeOf(drag.start, at(e));
    setDrag(null);
    review.show(null);
    review.setDraft({ ...shape, page });
  };

  const live = drag ? shapeOf(drag.start, drag.now) : null;
  const shown = draft && onThisPicture(draft) ? draft : live;
  return (
    <Box
      ref={box}
      pos="absolute"
      inset={0}
      data-testid="annotation-layer"
      data-drawing={drawing ? "on" : "off"}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      style={{ cursor: drawing ? "crosshair" : undefined, touchAction: drawing ? "none" : undefined }}
    >
      {markers.map((c) => (
        <Marker
          key={c.id}
          comment={c}
          number={numbers.get(c.id) ?? 0}
          open={visibleId === c.id}
          onToggle={() => review.toggle(c.id)}
        />
      ))}
      {shown && <Shape shape={shown} color="yellow" dashed testId="annotation-draft" />}
      {draft && onThisPicture(draft) && <DraftBox />}
    </Box>
  );
}

function Shape(props: {
  shape: { annotation_type: "POINT" | "AREA"; x: number; y: number; width?: number; height?: number };
  color: string;
  dashed?: boolean;
  testId?: string;
}) {
  const { shape } = props;
  if (shape.annotation_type === "AREA")
    return (
      <Box
        data-testid={props.testId}
        pos="absolute"
        left={`${shape.x}%`}
        top={`${shape.y}%`}
        w={`${shape.width}%`}
        h={`${shape.height}%`}
        style={{
          border: `2px ${props.dashed ? "dashed" : "solid"} var(--mantine-color-${props.color}-5)`,
          background: `color-mix(in srgb, var(--mantine-color-${props.color}-5) 12%, transparent)`,
          pointerEvents: "none",
        }}
      />
    );
  return (
    <Box
      data-testid={props.testId}
      pos="absolute"
      left={`${shape.x}%`}
      top={`${shape.y}%`}
      w={18}
      h={18}
      style={{
        translate: "-50% -50%",
        scale: "calc(1 / var(--viewer-zoom, 1))",
        borderRadius: "50%",
        border: "2px dashed white",
        background: `var(--mantine-color-${props.color}-5)`,
        pointerEvents: "none",
      }}
    />
  );
}

function Marker({
  comment,
  number,
  open,
  onToggle,
}: {
  comment: Comment;
  number: number;
  open: boolean;
  onToggle(): void;
}) {
  // A state ref: the popover may be asked for before the marker is on screen (a new annotation).
  const [el, setEl] = useState<HTMLButtonElement | null>(null);
  const color = SEVERITY_STYLE[comment.severity].color;
  const area = comment.annotation_type === "AREA";
  return (
    <>
      {area && (
        <Box
          pos="absolute"
          left={`${comment.x}%`}
          top={`${comment.y}%`}
          w={`${comment.width}%`}
          h={`${comment.height}%`}
          data-testid="annotation-area"
          style={{
            border: `2px solid var(--mantine-color-${color}-5)`,
            background: open ? `color-mix(in srgb, var(--mantine-color-${color}-5) 15%, transparent)` : undefined,
            pointerEvents: "none",
          }}
        />
      )}
      <UnstyledButton
        ref={setEl}
        aria-label={`Annotation ${number} by ${comment.author_display}`}
        aria-expanded={open}
        data-testid="annotation-marker"
        data-comment-id={comment.id}
        onPointerDown={(e) => e.stopPropagation()}
        onClick={(e) => {
          e.stopPropagation();
          onToggle();
        }}
        style={{
          position: "absolute",
          left: `${comment.x}%`,
          top: `${comment.y}%`,
          width: 24,
          height: 24,
          translate: area ? "-30% -30%" : "-50% -50%",
          scale: "calc(1 / var(--viewer-zoom, 1))",
          borderRadius: "50%",
          background: `var(--mantine-color-${color}-6)`,
          color: "white",
          border: "2px solid white",
          boxShadow: "0 1px 4px rgba(0,0,0,0.5)",
          fontSize: 12,
          fontWeight: 700,
          display: "grid",
          placeItems: "center",
          zIndex: open ? 3 : 2,
        }}
      >
        {number}
      </UnstyledButton>
      <AnnotationPopover anchor={el} comment={comment} open={open} onClose={onToggle} />
    </>
  );
}

function AnnotationPopover(props: { anchor: HTMLElement | null; comment: Comment; open: boolean; onClose(): void }) {
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
function DraftBox() {
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
    const v = review.video.current;
    create.mutate(
      {
        text: body,
        annotation_type: draft.annotation_type,
        x: draft.x,
        y: draft.y,
        ...(draft.annotation_type === "AREA" ? { width: draft.width, height: draft.height } : {}),
        page: draft.page,
        board_id: review.boardId,
        ...(v ? { timestamp: Math.round(v.time() * 1000) / 1000 } : {}),
      },
      {
        onSuccess: (created) => {
          review.setDraft(null);
          review.show(created.id); // the new annotation opens (spec 02 §4)
        },
        // Spec 02 §8: annotation create failures are only logged.
        onError: (error) => console.warn("Annotation create failed", error),
      },
    );
  };
  const w = draft.annotation_type === "AREA" ? draft.width : 0;
  return (
    <>
      <Box ref={anchor} pos="absolute" left={`${draft.x + w}%`} top={`${draft.y}%`} w={1} h={1} />
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
              placeholder={draft.annotation_type === "AREA" ? "Comment on this area…" : "Comment on this spot…"}
              aria-label="Annotation comment"
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === "Escape") {
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
