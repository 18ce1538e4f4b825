import type { Comment } from "@hangar/contract";
import { Box, Text, Tooltip, UnstyledButton } from "@mantine/core";
import { useEffect, useState } from "react";
import { timecode } from "../../../entities/format";
import { keepsOwnKeys } from "../../../lib/typing";
import { AnnotationLayer, roundMs, useReview } from "../../comments";

const pct = (t: number, duration: number) => `${Math.min(100, Math.max(0, (t / duration) * 100))}%`;

/**
 * The comments on the scrub bar (spec 02 §2, issue 31): a mark at a comment's time, a bar from in to
 * out for a range; and the range being made with I and O, in its own colour.
 */
export function TimelineMarks({ comments, duration }: { comments: Comment[]; duration: number }) {
  const review = useReview();
  if (duration <= 0) return null;
  const range = review?.range ?? null;
  return (
    <>
      {range && (
        <Box
          data-testid="timeline-range"
          pos="absolute"
          left={pct(range.in, duration)}
          w={range.out !== null ? pct(range.out - range.in, duration) : 3}
          bottom={4}
          h={16}
          style={{
            borderRadius: 4,
            background: "color-mix(in srgb, var(--mantine-color-grape-4) 55%, transparent)",
            border: "1px solid var(--mantine-color-grape-2)",
            pointerEvents: "none",
            zIndex: 1,
          }}
        />
      )}
      {comments.map((c) => {
        const at = c.timestamp ?? 0;
        const label = c.duration ? `${timecode(at)}–${timecode(at + c.duration)}` : timecode(at);
        return (
          <Tooltip key={c.id} label={`${label} · ${c.author_display}: ${c.text.slice(0, 60)}`}>
            {/* A 24 px tap target around the 10 px mark (WCAG 2.5.8: a phone's finger). */}
            <UnstyledButton
              aria-label={`Comment ${c.duration ? "from" : "at"} ${label} by ${c.author_display}`}
              data-testid="timeline-marker"
              data-range={c.duration ? "true" : undefined}
              onClick={() => review?.focus(c)}
              style={{
                position: "absolute",
                left: pct(at, duration),
                bottom: 7,
                width: c.duration ? pct(c.duration, duration) : 24,
                minWidth: 24,
                height: 24,
                translate: c.duration ? undefined : "-50% 0",
                display: "grid",
                placeItems: "center",
                zIndex: 2,
              }}
            >
              <Box
                w={c.duration ? "100%" : 10}
                h={10}
                style={{
                  borderRadius: 5,
                  background: "var(--mantine-color-yellow-5)",
                  border: "1px solid rgba(0,0,0,0.4)",
                }}
              />
            </UnstyledButton>
          </Tooltip>
        );
      })}
    </>
  );
}

/**
 * I and O set the range's in and out at the player's time (an out before the in swaps them; a new
 * in after the out starts again); the viewer's keys, not while typing.
 */
export function useRangeKeys(time: () => number, enabled: boolean) {
  const review = useReview();
  useEffect(() => {
    if (!review || !enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (keepsOwnKeys(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      const key = e.key.toLowerCase();
      if (key !== "i" && key !== "o") return;
      e.preventDefault();
      setRangeEnd(review, key === "i" ? "in" : "out", time());
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [review, enabled, time]);
}

export function setRangeEnd(review: NonNullable<ReturnType<typeof useReview>>, end: "in" | "out", t: number) {
  const at = roundMs(t);
  const r = review.range;
  if (end === "in")
    review.setRange({ in: at, out: r?.out !== null && r?.out !== undefined && r.out > at ? r.out : null });
  else if (!r) review.setRange({ in: 0, out: at > 0 ? at : null });
  else if (at > r.in) review.setRange({ in: r.in, out: at });
  else if (at < r.in) review.setRange({ in: at, out: r.in });
}

/**
 * The annotation layer over the frame the <video> shows (object-fit: contain leaves bars around it),
 * so shapes sit on the picture's own coordinates at any player size.
 */
export function VideoFrameLayer(props: {
  video: HTMLVideoElement | null;
  time: number;
  paused: boolean;
  fps: number;
  /** A click the layer does not take (nothing is being drawn): the player's play and pause. */
  onClick(): void;
}) {
  const { video } = props;
  const [rect, setRect] = useState<{ left: number; top: number; width: number; height: number } | null>(null);
  useEffect(() => {
    if (!video) return;
    const measure = () => {
      const W = video.clientWidth;
      const H = video.clientHeight;
      const vw = video.videoWidth;
      const vh = video.videoHeight;
      if (!W || !H || !vw || !vh) return setRect(null);
      const scale = Math.min(W / vw, H / vh);
      const width = vw * scale;
      const height = vh * scale;
      setRect({ left: (W - width) / 2, top: (H - height) / 2, width, height });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(video);
    video.addEventListener("loadedmetadata", measure);
    video.addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      video.removeEventListener("loadedmetadata", measure);
      video.removeEventListener("resize", measure);
    };
  }, [video]);
  if (!rect) return null;
  return (
    <Box pos="absolute" data-testid="video-frame" style={{ ...rect }} onClick={props.onClick}>
      <AnnotationLayer page={null} frame={{ time: props.time, paused: props.paused, fps: props.fps }} />
    </Box>
  );
}

/** "Set in" and "Set out" on the player's bar: the range's ends at the player's time (I and O). */
export function RangeButtons({ time }: { time: () => number }) {
  const review = useReview();
  if (!review) return null;
  const button = (end: "in" | "out", label: string, key: string) => (
    <Tooltip label={`Set ${end} (${key})`}>
      <UnstyledButton
        aria-label={`Set ${end}`}
        aria-keyshortcuts={key}
        data-testid={`range-${end}`}
        mih={24}
        miw={24}
        onClick={() => setRangeEnd(review, end, time())}
      >
        <Text size="xs" c="gray.0" fw={600} px={4}>
          {label}
        </Text>
      </UnstyledButton>
    </Tooltip>
  );
  return (
    <>
      {button("in", "In", "I")}
      {button("out", "Out", "O")}
    </>
  );
}
