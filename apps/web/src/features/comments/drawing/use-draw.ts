import {
  type MouseEvent as ReactMouseEvent,
  type PointerEvent as ReactPointerEvent,
  type RefObject,
  useEffect,
  useRef,
  useState,
} from "react";
import type { Review } from "../review-context";
import { shapeOf, toPercent } from "../review-math";
import { strokeStyle } from "./drawings-svg";
import { headLength, isShapeTool, type Pen, shapeFromDrag, shapePath, strokePx } from "./tools";

type Point = { x: number; y: number };

/** A video frame the layer is over: its time, and whether the player is paused. */
export interface FrameInfo {
  time: number;
  paused: boolean;
  fps: number;
}

interface Stroke {
  pen: Pen & { tool: Exclude<Pen["tool"], "point" | "area"> };
  /** The layer's box when the stroke began: it does not move while drawing, and reading it per event
   * would make the browser lay out the path just painted. */
  rect: DOMRect;
  points: Point[];
  d: string;
  timestamp: number | null;
}

/**
 * The pointer on the annotation layer (spec 02 §4, issue 31): a click or drag makes a POINT or an
 * AREA with those tools; the shape tools draw a shape that joins the draft. The shape being drawn is
 * painted straight into the `live` path (no React render per pointer event); a pen stroke gets every
 * coalesced event and is simplified when it ends. A second finger stops the shape (two fingers pan
 * and zoom); Escape cancels it; Ctrl/Meta pans. On a video, drawing pauses it and the shape is made on
 * that frame; a click on a playing video only pauses it.
 */
export function useDraw(opts: {
  review: Review | null;
  page: number | null;
  frame?: FrameInfo;
  box: HTMLDivElement | null;
  live: RefObject<SVGPathElement | null>;
  size: { width: number; height: number };
}) {
  const { review, page, frame, box, live, size } = opts;
  const [drag, setDrag] = useState<{ start: Point; now: Point; timestamp: number | null } | null>(null);
  const stroke = useRef<Stroke | null>(null);
  const touches = useRef(new Set<number>());
  const drawing = !!review && review.annotating && review.canComment;

  const at = (e: { clientX: number; clientY: number }, rect?: DOMRect) =>
    toPercent(rect ?? box!.getBoundingClientRect(), e.clientX, e.clientY);
  const paint = (d: string) => live.current?.setAttribute("d", d);
  const cancel = () => {
    stroke.current = null;
    paint("");
    setDrag(null);
    if (review && !review.draft) review.escapeBusy.current = false;
  };
  const latestCancel = useRef(cancel);
  latestCancel.current = cancel;
  // Escape while a shape is being drawn cancels that shape (the draft's text box takes Escape after).
  const active = drag !== null;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || (!stroke.current && !active)) return;
      e.preventDefault();
      e.stopPropagation();
      latestCancel.current();
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [active]);

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!review || !drawing || e.button !== 0 || e.ctrlKey || e.metaKey) return; // Ctrl/Meta: the transform pans
    // Events bubble here from the popovers' portals too (a close button, the text box): not the picture.
    if (!(e.target instanceof Node) || !box?.contains(e.target)) return;
    if (e.pointerType === "touch") {
      touches.current.add(e.pointerId);
      if (touches.current.size > 1) {
        cancel(); // a second finger: pinch and pan, not a shape
        return;
      }
    }
    e.stopPropagation();
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    const video = frame ? review.video.current : null;
    const wasPlaying = !!video && !video.paused();
    video?.pause();
    const timestamp = video ? video.time() : null;
    const p = at(e);
    const pen = review.pen;
    if (isShapeTool(pen.tool)) {
      const tool = pen.tool;
      stroke.current = {
        pen: { ...pen, tool },
        rect: box!.getBoundingClientRect(),
        points: [p],
        d: "",
        timestamp,
      };
      const px = strokePx(pen.width, size);
      const path = live.current;
      if (path) {
        path.setAttribute("stroke", pen.color);
        Object.assign(path.style, strokeStyle(px));
      }
      if (tool === "pen") {
        stroke.current.d = `M${p.x.toFixed(2)} ${p.y.toFixed(2)}L${p.x.toFixed(2)} ${p.y.toFixed(2)}`;
        paint(stroke.current.d);
      }
    } else if (!wasPlaying) setDrag({ start: p, now: p, timestamp });
    else return; // a click on a playing video pauses it, nothing more
    review.escapeBusy.current = true;
  };

  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const s = stroke.current;
    if (s) {
      if (s.pen.tool === "pen") {
        const events = e.nativeEvent.getCoalescedEvents?.() ?? [];
        for (const ev of events.length ? events : [e.nativeEvent]) {
          const p = at(ev, s.rect);
          s.points.push(p);
          s.d += `L${p.x.toFixed(2)} ${p.y.toFixed(2)}`;
        }
        paint(s.d);
      } else {
        const p = at(e, s.rect);
        s.points = [s.points[0]!, p];
        const px = strokePx(s.pen.width, size);
        paint(
          shapePath(
            {
              kind: s.pen.tool,
              points: [
                [s.points[0]!.x, s.points[0]!.y],
                [p.x, p.y],
              ],
            },
            size,
            headLength(px),
          ),
        );
      }
    } else if (drag) setDrag({ ...drag, now: at(e) });
  };

  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    touches.current.delete(e.pointerId);
    if (!review) return;
    const s = stroke.current;
    if (s) {
      if (s.pen.tool !== "pen") s.points = [s.points[0]!, at(e, s.rect)];
      const shape = shapeFromDrag(s.pen, s.points);
      stroke.current = null;
      paint("");
      if (!shape) return cancel();
      review.show(null);
      review.addShape(shape, { page, timestamp: s.timestamp });
      return;
    }
    if (!drag) return;
    const end = at(e);
    const shape =
      review.pen.tool === "point"
        ? {
            annotation_type: "POINT" as const,
            x: Math.round(drag.start.x * 100) / 100,
            y: Math.round(drag.start.y * 100) / 100,
          }
        : shapeOf(drag.start, end);
    setDrag(null);
    review.show(null);
    review.setDraft({ ...shape, page, timestamp: drag.timestamp });
  };

  const onPointerCancel = (e: ReactPointerEvent<HTMLDivElement>) => {
    touches.current.delete(e.pointerId);
    cancel();
  };

  const liveArea = drag
    ? review?.pen.tool === "point"
      ? shapeOf(drag.start, drag.start)
      : shapeOf(drag.start, drag.now)
    : null;
  // The click that ends a drawing is the layer's (a video's frame would otherwise play or pause).
  const onClick = (e: ReactMouseEvent<HTMLDivElement>) => {
    if (drawing) e.stopPropagation();
  };
  return { drawing, liveArea, handlers: { onPointerDown, onPointerMove, onPointerUp, onPointerCancel, onClick } };
}
