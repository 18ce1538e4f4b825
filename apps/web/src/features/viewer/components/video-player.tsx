import { ActionIcon, Box, Group, Loader, Menu, Slider, Text, Tooltip, UnstyledButton } from "@mantine/core";
import {
  IconMaximize,
  IconMinimize,
  IconPlayerPauseFilled,
  IconPlayerPlayFilled,
  IconVolume,
  IconVolumeOff,
} from "@tabler/icons-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { timecode } from "../../../entities/format";
import { keepsOwnKeys } from "../../../lib/typing";
import { useReview } from "../../comments";
import type { PlaybackLock } from "../compare/sync";
import { VIDEO_PLAYER } from "../viewer-constants";
import { RangeButtons, TimelineMarks, useRangeKeys, VideoFrameLayer } from "./video-marks";

export interface VideoPlayerProps {
  src: string;
  poster?: string | null;
  /** Frames per second (frame stepping and the timecode); 25 when unknown. */
  fps?: number | null;
  /** Known duration in seconds, shown before the metadata arrives. */
  duration?: number | null;
  /** A sprite of frames for the scrub bar's hover preview (columns × rows, one every `interval` s). */
  sprite?: { url: string; columns: number; rows: number; interval: number; width: number; height: number } | null;
  /** Compare: playback shared with the other side. */
  lock?: PlaybackLock | null;
  /** The keyboard's shortcuts (false: the other side of a compare takes them, and this one follows). */
  keys?: boolean;
}

/**
 * The spec's player (spec 02 §2 Video player) on a native <video>: play/pause, mute, volume,
 * speed, fullscreen, a loading overlay until metadata, controls that hide while playing; plus
 * what reviewers expect: Space/K, J/L (10 s), ←/→ one frame, a timecode, a scrub bar with previews.
 */
export function VideoPlayer({
  src,
  poster,
  fps,
  duration: knownDuration,
  sprite,
  lock,
  keys = true,
}: VideoPlayerProps) {
  const frameRate = fps && fps > 0 ? fps : 25;
  const review = useReview();
  const box = useRef<HTMLDivElement>(null);
  const video = useRef<HTMLVideoElement | null>(null);
  const [videoEl, setVideoEl] = useState<HTMLVideoElement | null>(null);
  const [ready, setReady] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(knownDuration ?? 0);
  const [volume, setVolume] = useState(1);
  const [muted, setMuted] = useState(false);
  const [rate, setRate] = useState(1);
  const [fullscreen, setFullscreen] = useState(false);
  const [controlsVisible, setControlsVisible] = useState(true);
  const [hover, setHover] = useState<{ x: number; t: number } | null>(null);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const scheduleHide = useCallback(
    (ms: number) => {
      if (hideTimer.current) clearTimeout(hideTimer.current);
      setControlsVisible(true);
      if (!playing) return;
      hideTimer.current = setTimeout(() => setControlsVisible(false), ms);
    },
    [playing],
  );
  useEffect(() => {
    scheduleHide(VIDEO_PLAYER.hideAfterMs);
    return () => {
      if (hideTimer.current) clearTimeout(hideTimer.current);
    };
  }, [scheduleHide]);

  const toggle = useCallback(() => {
    const v = video.current;
    if (!v) return;
    if (v.paused) void v.play().catch(() => {});
    else v.pause();
  }, []);
  const seek = useCallback((t: number) => {
    const v = video.current;
    if (!v) return;
    v.currentTime = Math.min(Math.max(0, t), Number.isFinite(v.duration) ? v.duration : t);
    setTime(v.currentTime);
  }, []);
  // The review tools read the time (a comment made while paused is stamped with it) and seek.
  useEffect(() => {
    if (!review) return;
    const { video: slot } = review;
    slot.current = {
      time: () => video.current?.currentTime ?? 0,
      paused: () => video.current?.paused ?? true,
      seek,
      pause: () => video.current?.pause(),
    };
    // A comment focused before the player was there (a mention's link): its time now.
    if (review.pendingSeek.current !== null) {
      video.current?.pause();
      seek(review.pendingSeek.current);
      review.pendingSeek.current = null;
    }
    return () => {
      slot.current = null;
    };
  }, [review, seek]);
  useEffect(() => (lock && video.current ? lock.join(video.current) : undefined), [lock]);
  // Ranges (I and O) for whoever comments here, on the side that takes the keys.
  const ranges = review?.canComment && keys ? review : null;
  const now = useCallback(() => video.current?.currentTime ?? 0, []);
  useRangeKeys(now, !!ranges);
  const shownVersion = review?.version?.id;
  const timed = (review?.threads ?? []).filter(
    (c) => c.timestamp !== null && !c.resolved && (!shownVersion || !c.version || c.version.id === shownVersion),
  );
  /** One frame: the middle of the next (or previous) frame, so rounding never lands on the edge. */
  const step = useCallback(
    (frames: number) => {
      const v = video.current;
      if (!v) return;
      v.pause();
      const current = Math.floor(v.currentTime * frameRate + 1e-6);
      seek((current + frames + 0.5) / frameRate);
    },
    [frameRate, seek],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!keys || keepsOwnKeys(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      const v = video.current;
      if (!v) return;
      const key = e.key.toLowerCase();
      if (key === " " || key === "k") toggle();
      else if (key === "j") seek(v.currentTime - 10);
      else if (key === "l") seek(v.currentTime + 10);
      else if (key === "arrowleft") step(-1);
      else if (key === "arrowright") step(1);
      else if (key === "m") v.muted = !v.muted;
      else if (key === "f") void toggleFullscreen();
      else return;
      e.preventDefault();
      e.stopPropagation();
      scheduleHide(VIDEO_PLAYER.hideAfterMs);
    };
    // Capture: the viewer's own ←/→ (previous / next asset) must not see keys the player used.
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  });

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === box.current);
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, []);
  async function toggleFullscreen() {
    if (document.fullscreenElement) await document.exitFullscreen().catch(() => {});
    else await box.current?.requestFullscreen().catch(() => {});
  }

  const setVolumeTo = (value: number) => {
    const v = video.current;
    if (!v) return;
    v.volume = Math.round(value * 10) / 10;
    v.muted = v.volume === 0;
  };
  const spriteFrame = (t: number) => {
    if (!sprite) return null;
    const index = Math.min(sprite.columns * sprite.rows - 1, Math.floor(t / sprite.interval));
    return { x: (index % sprite.columns) * sprite.width, y: Math.floor(index / sprite.columns) * sprite.height };
  };
  const shown = controlsVisible || !playing;
  const frame = hover ? spriteFrame(hover.t) : null;

  return (
    <Box
      ref={box}
      pos="relative"
      w="100%"
      h="100%"
      bg="black"
      data-testid="video-player"
      data-playing={playing ? "true" : "false"}
      data-controls={shown ? "shown" : "hidden"}
      onMouseMove={() => scheduleHide(VIDEO_PLAYER.hideAfterMs)}
      onMouseLeave={() => scheduleHide(VIDEO_PLAYER.hideAfterLeaveMs)}
      style={{ cursor: shown ? "default" : "none" }}
    >
      {/* biome-ignore lint/a11y/useMediaCaption: user uploads have no caption track */}
      <video
        ref={(el) => {
          video.current = el;
          setVideoEl(el);
        }}
        src={src}
        poster={poster ?? undefined}
        preload="metadata"
        playsInline
        data-testid="viewer-video"
        onClick={toggle}
        onLoadedMetadata={(e) => {
          setReady(true);
          setDuration(e.currentTarget.duration);
        }}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
        onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
        onSeeked={(e) => setTime(e.currentTarget.currentTime)}
        onVolumeChange={(e) => {
          setVolume(e.currentTarget.volume);
          setMuted(e.currentTarget.muted);
        }}
        onRateChange={(e) => setRate(e.currentTarget.playbackRate)}
        style={{ width: "100%", height: "100%", objectFit: "contain", display: "block" }}
      />
      <VideoFrameLayer video={videoEl} time={time} paused={!playing} fps={frameRate} onClick={toggle} />
      {!ready && (
        <Box
          pos="absolute"
          inset={0}
          style={{ display: "grid", placeItems: "center", background: "rgba(0,0,0,0.35)" }}
          data-testid="video-loading"
        >
          <Loader color="gray.0" />
        </Box>
      )}
      <Box
        pos="absolute"
        left={0}
        right={0}
        bottom={0}
        px="sm"
        pb="xs"
        pt={24}
        style={{
          background: "linear-gradient(transparent, rgba(0,0,0,0.75))",
          opacity: shown ? 1 : 0,
          transition: "opacity 200ms",
          pointerEvents: "none",
        }}
        data-testid="video-controls"
      >
        <Box
          pos="relative"
          style={{ pointerEvents: shown ? "auto" : "none" }}
          onMouseMove={(e) => {
            const rect = e.currentTarget.getBoundingClientRect();
            const x = Math.min(Math.max(0, e.clientX - rect.left), rect.width);
            setHover({ x, t: (x / rect.width) * (duration || 0) });
          }}
          onMouseLeave={() => setHover(null)}
        >
          {hover && duration > 0 && (
            <Box
              pos="absolute"
              bottom={18}
              left={hover.x}
              style={{ translate: "-50% 0", pointerEvents: "none", textAlign: "center" }}
              data-testid="scrub-preview"
            >
              {sprite && frame && (
                <Box
                  w={sprite.width}
                  h={sprite.height}
                  style={{
                    backgroundImage: `url(${sprite.url})`,
                    backgroundPosition: `-${frame.x}px -${frame.y}px`,
                    border: "2px solid white",
                    borderRadius: 4,
                  }}
                />
              )}
              <Text size="xs" c="white" fw={600}>
                {timecode(hover.t)}
              </Text>
            </Box>
          )}
          <TimelineMarks comments={timed} duration={duration} />
          <Slider
            aria-label="Seek"
            thumbLabel="Seek"
            min={0}
            max={duration || 1}
            step={1 / frameRate}
            value={Math.min(time, duration || time)}
            onChange={seek}
            label={null}
            size="sm"
            color="blue"
            data-testid="video-scrub"
          />
        </Box>
        <Group justify="space-between" mt={6} wrap="nowrap" style={{ pointerEvents: shown ? "auto" : "none" }}>
          <Group gap={6} wrap="nowrap">
            <Tooltip label={playing ? "Pause (K)" : "Play (K)"}>
              <ActionIcon variant="subtle" color="gray.0" aria-label={playing ? "Pause" : "Play"} onClick={toggle}>
                {playing ? <IconPlayerPauseFilled size={18} /> : <IconPlayerPlayFilled size={18} />}
              </ActionIcon>
            </Tooltip>
            <Tooltip label={muted ? "Unmute (M)" : "Mute (M)"}>
              <ActionIcon
                variant="subtle"
                color="gray.0"
                aria-label={muted ? "Unmute" : "Mute"}
                onClick={() => {
                  if (video.current) video.current.muted = !video.current.muted;
                }}
              >
                {muted || volume === 0 ? <IconVolumeOff size={18} /> : <IconVolume size={18} />}
              </ActionIcon>
            </Tooltip>
            {/* A phone has its own volume buttons: the slider makes room for the clock there. */}
            <Slider
              aria-label="Volume"
              thumbLabel="Volume"
              visibleFrom="xs"
              w={80}
              min={0}
              max={1}
              step={VIDEO_PLAYER.volumeStep}
              value={muted ? 0 : volume}
              onChange={setVolumeTo}
              label={(v) => `${Math.round(v * 100)}%`}
              size="xs"
              color="gray.0"
              data-testid="video-volume"
            />
            {/* One format on both sides (issue 35): hours, minutes, seconds and frames. */}
            <Text size="xs" c="gray.0" ff="monospace" data-testid="video-timecode" style={{ whiteSpace: "nowrap" }}>
              {timecode(time, frameRate)} / {timecode(duration, frameRate)}
            </Text>
          </Group>
          <Group gap={6} wrap="nowrap">
            {ranges && <RangeButtons time={now} />}
            <Menu position="top-end" withinPortal={false}>
              <Menu.Target>
                <UnstyledButton aria-label="Playback speed" data-testid="video-speed" mih={24} miw={24}>
                  <Text size="xs" c="gray.0" fw={600} px={6}>
                    {rate}×
                  </Text>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                {VIDEO_PLAYER.speeds.map((s) => (
                  <Menu.Item
                    key={s}
                    onClick={() => {
                      if (video.current) video.current.playbackRate = s;
                    }}
                    fw={s === rate ? 700 : 400}
                  >
                    {s}×
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
            <Tooltip label={fullscreen ? "Exit fullscreen (F)" : "Fullscreen (F)"}>
              <ActionIcon
                variant="subtle"
                color="gray.0"
                aria-label={fullscreen ? "Exit fullscreen" : "Fullscreen"}
                onClick={() => void toggleFullscreen()}
              >
                {fullscreen ? <IconMinimize size={18} /> : <IconMaximize size={18} />}
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
      </Box>
    </Box>
  );
}
