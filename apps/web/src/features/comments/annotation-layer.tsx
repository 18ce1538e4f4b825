import type { Comment } from "@hangar/contract";
import { Box, UnstyledButton } from "@mantine/core";
import { useRef, useState } from "react";
import { AnnotationPopover, DraftBox } from "./annotation-popovers";
import { DrawingsSvg, useLayoutSize } from "./drawing/drawings-svg";
import { boundsOf, isShapeTool, onFrame } from "./drawing/tools";
import { type FrameInfo, useDraw } from "./drawing/use-draw";
import { useHoveredId, useReview } from "./review-context";
import { SEVERITY_STYLE } from "./severity";

/** Numbers of the annotated threads, in thread order (the drawer shows the same numbers). */
export function annotationNumbers(threads: Comment[]): Map<string, number> {
  return new Map(threads.filter((c) => c.annotation_type !== "NONE").map((c, i) => [c.id, i + 1]));
}

/**
 * Annotations over a picture (an image, one document page, or a video's frame), inside the zoom
 * transform so they stay on their spot through zoom, pan and resizing (spec 02 §4, issue 31): markers
 * of the open threads and their drawings, the tools drawing a POINT, an AREA or shapes (use-draw),
 * the text box for a new one, and the popover of the visible one. On a video (`frame`), a comment
 * shows while the player is paused on its frame or inside its range.
 */
export function AnnotationLayer({ page, frame }: { page: number | null; frame?: FrameInfo }) {
  const review = useReview();
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const live = useRef<SVGPathElement>(null);
  const size = useLayoutSize(el);
  const { drawing, liveArea, handlers } = useDraw({ review, page, frame, box: el, live, size });
  const hoveredId = useHoveredId(review?.hovered);
  if (!review) return null;
  const { threads, draft, visibleId } = review;
  const onThisPicture = (c: { page: number | null }) => (page === null ? true : (c.page ?? 1) === page);
  // Drawn on the version they were made on (issue 29): the drawer may list every version's.
  const shownVersion = review.version?.id;
  const onThisVersion = (c: Comment) => !shownVersion || !c.version || c.version.id === shownVersion;
  const onThisFrame = (c: Comment) => !frame || (frame.paused && onFrame(c, frame.time, frame.fps));
  const numbers = annotationNumbers(threads);
  const markers = threads.filter(
    (c) => c.annotation_type !== "NONE" && !c.resolved && onThisPicture(c) && onThisVersion(c) && onThisFrame(c),
  );
  const drawings = markers
    .filter((c) => c.annotation_type === "DRAWING" && c.shapes)
    .map((c) => ({
      id: c.id,
      shapes: c.shapes!,
      highlighted: c.id === hoveredId || c.id === visibleId || c.id === review.highlightedId,
    }));
  const draftHere = draft && onThisPicture(draft) ? draft : null;
  const shown = draftHere && draftHere.annotation_type !== "DRAWING" ? draftHere : liveArea;
  // Shapes are picked (their comment opens) when the tools are not drawing shapes.
  const pickable = !drawing || !isShapeTool(review.pen.tool);
  return (
    <Box
      ref={setEl}
      pos="absolute"
      inset={0}
      data-testid="annotation-layer"
      data-drawing={drawing ? "on" : "off"}
      data-tool={review.pen.tool}
      {...handlers}
      style={{ cursor: drawing ? "crosshair" : undefined, touchAction: drawing ? "none" : undefined }}
    >
      <DrawingsSvg
        drawings={drawings}
        draft={draftHere?.annotation_type === "DRAWING" ? draftHere.shapes : null}
        size={size}
        live={live}
        pickable={pickable}
        onPick={(id) => {
          const c = threads.find((t) => t.id === id);
          if (c) review.focus(c);
        }}
      />
      {markers.map((c) => (
        <Marker
          key={c.id}
          comment={c}
          number={numbers.get(c.id) ?? 0}
          open={visibleId === c.id}
          hovered={hoveredId === c.id}
          onToggle={() => review.toggle(c.id)}
        />
      ))}
      {shown && <Shape shape={shown} color="yellow" dashed testId="annotation-draft" />}
      {draftHere && <DraftBox />}
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
  hovered,
  onToggle,
}: {
  comment: Comment;
  number: number;
  open: boolean;
  hovered: boolean;
  onToggle(): void;
}) {
  // A state ref: the popover may be asked for before the marker is on screen (a new annotation).
  const [el, setEl] = useState<HTMLButtonElement | null>(null);
  // A drawing's popover goes beside everything drawn, not over it.
  const [boundsEl, setBoundsEl] = useState<HTMLDivElement | null>(null);
  const color = SEVERITY_STYLE[comment.severity].color;
  const area = comment.annotation_type === "AREA";
  const drawn = comment.annotation_type === "DRAWING" && comment.shapes ? boundsOf(comment.shapes) : null;
  return (
    <>
      {drawn && (
        <Box
          ref={setBoundsEl}
          pos="absolute"
          left={`${drawn.x}%`}
          top={`${drawn.y}%`}
          w={`max(1px, ${drawn.width}%)`}
          h={`max(1px, ${drawn.height}%)`}
          style={{ pointerEvents: "none" }}
        />
      )}
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
            background:
              open || hovered ? `color-mix(in srgb, var(--mantine-color-${color}-5) 15%, transparent)` : undefined,
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
          outline: hovered ? "3px solid var(--mantine-color-yellow-4)" : undefined,
        }}
      >
        {number}
      </UnstyledButton>
      <AnnotationPopover anchor={drawn ? boundsEl : el} comment={comment} open={open} onClose={onToggle} />
    </>
  );
}
