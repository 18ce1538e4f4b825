import type { DrawingShape } from "@hangar/contract";
import { type CSSProperties, type Ref, useEffect, useState } from "react";
import { headLength, shapePath, strokePx } from "./tools";

/** The layer's size in CSS pixels at zoom 1 (its layout box: the zoom's transform does not change it). */
export function useLayoutSize(el: HTMLElement | null) {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    if (!el) return;
    const measure = () =>
      setSize((s) =>
        s.width === el.offsetWidth && s.height === el.offsetHeight
          ? s
          : { width: el.offsetWidth, height: el.offsetHeight },
      );
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return size;
}

/**
 * A stroke `px` wide on screen whatever the zoom: the path does not scale its stroke with the
 * viewBox (non-scaling-stroke), and the zoom's CSS scale is divided out.
 */
export const strokeStyle = (px: number): CSSProperties => ({ strokeWidth: `calc(${px}px / var(--viewer-zoom, 1))` });

const PATH = {
  fill: "none",
  strokeLinecap: "round",
  strokeLinejoin: "round",
  vectorEffect: "non-scaling-stroke",
} as const;

export interface ShownDrawing {
  id: string;
  shapes: DrawingShape[];
  highlighted: boolean;
}

/**
 * The drawings on a picture as SVG in its percent coordinates (issue 31), inside the zoom transform
 * so they keep their spot: the comments' shapes (highlighted when their comment is hovered or open;
 * a click on one opens its comment when `pickable`), the draft's shapes, and the shape being drawn
 * (`live`, a path the pointer handler updates itself so a long stroke does not re-render the layer).
 */
export function DrawingsSvg(props: {
  drawings: ShownDrawing[];
  draft: DrawingShape[] | null;
  size: { width: number; height: number };
  live: Ref<SVGPathElement>;
  pickable: boolean;
  onPick(id: string): void;
}) {
  const { size } = props;
  const shape = (s: DrawingShape, key: number, halo: boolean, pick?: () => void) => {
    const px = strokePx(s.width, size);
    const d = shapePath(s, size, headLength(px));
    return (
      <g key={key}>
        {halo && <path d={d} {...PATH} stroke="white" strokeOpacity={0.85} style={strokeStyle(px + 6)} />}
        <path d={d} {...PATH} stroke={s.color} style={strokeStyle(px)} data-testid="drawing-shape" data-kind={s.kind} />
        {pick && (
          // biome-ignore lint/a11y/noStaticElementInteractions: a pointer shortcut; the comment's numbered marker is the button
          <path
            d={d}
            {...PATH}
            stroke="transparent"
            style={{ ...strokeStyle(Math.max(px, 16)), pointerEvents: "stroke", cursor: "pointer" }}
            onPointerDown={(e) => e.stopPropagation()}
            onClick={(e) => {
              e.stopPropagation();
              pick();
            }}
          />
        )}
      </g>
    );
  };
  return (
    <svg
      viewBox="0 0 100 100"
      preserveAspectRatio="none"
      aria-hidden
      data-testid="drawings"
      style={{
        position: "absolute",
        inset: 0,
        width: "100%",
        height: "100%",
        overflow: "visible",
        pointerEvents: "none",
        // A white stroke on a white sky, a black one on a night: a faint outline keeps both readable.
        filter: "drop-shadow(0 0 1px rgba(0, 0, 0, 0.5))",
      }}
    >
      {props.drawings.map((d) => (
        <g key={d.id} data-testid="drawing" data-comment-id={d.id} data-highlighted={d.highlighted || undefined}>
          {d.shapes.map((s, i) => shape(s, i, d.highlighted, props.pickable ? () => props.onPick(d.id) : undefined))}
        </g>
      ))}
      {props.draft && <g data-testid="drawing-draft">{props.draft.map((s, i) => shape(s, i, false))}</g>}
      <path ref={props.live} {...PATH} data-testid="drawing-live" />
    </svg>
  );
}
