/**
 * Compare (issue 29) locks its two sides together: one zoom and pan for pictures, one playback for
 * videos. Each side joins the lock and tells it what the user did to it; the lock does the same to
 * the other side. Echoes (the other side reporting what it was just told) end there: a state equal
 * to the last one passed on is not passed on again, and a side is not told while it is telling.
 */

export interface ZoomState {
  scale: number;
  positionX: number;
  positionY: number;
}

const near = (a: ZoomState, b: ZoomState) =>
  Math.abs(a.scale - b.scale) < 1e-3 &&
  Math.abs(a.positionX - b.positionX) < 0.5 &&
  Math.abs(a.positionY - b.positionY) < 0.5;

export interface ZoomLock {
  /** A side joins with how to apply a state to it; answers its handle. */
  join(apply: (state: ZoomState) => void): { publish(state: ZoomState): void; leave(): void };
}

/** One zoom and pan for every side (the sides are the same size, so positions in pixels carry over). */
export function createZoomLock(): ZoomLock {
  const sides = new Set<(state: ZoomState) => void>();
  let last: ZoomState | null = null;
  let passing = false;
  return {
    join(apply) {
      sides.add(apply);
      return {
        publish(state) {
          if (passing || (last && near(last, state))) return;
          last = { ...state };
          passing = true;
          try {
            for (const other of sides) if (other !== apply) other(state);
          } finally {
            passing = false;
          }
        },
        leave: () => void sides.delete(apply),
      };
    },
  };
}

/** Half a frame at 25 fps: closer than this, two videos show the same frame. */
const SAME_TIME = 0.02;
/** While playing, a follower further off than this is put back on the leader's time. */
const DRIFT = 0.15;

export interface PlaybackLock {
  /** A side's <video>; answers how to leave. */
  join(video: HTMLVideoElement): () => void;
}

/**
 * One playback for every side: play, pause, seeking and frame steps on one video happen on the
 * others (each clamped to its own length), and a side drifting while both play is put back.
 */
export function createPlaybackLock(): PlaybackLock {
  const videos = new Set<HTMLVideoElement>();
  const others = (v: HTMLVideoElement) => [...videos].filter((o) => o !== v);
  const seekTo = (o: HTMLVideoElement, t: number) => {
    const end = Number.isFinite(o.duration) ? o.duration : t;
    const target = Math.min(Math.max(0, t), end);
    if (Math.abs(o.currentTime - target) > SAME_TIME) o.currentTime = target;
  };
  return {
    join(video) {
      videos.add(video);
      const onPlay = () => {
        for (const o of others(video)) {
          seekTo(o, video.currentTime);
          if (o.paused) void o.play().catch(() => {});
        }
      };
      const onPause = () => {
        for (const o of others(video)) {
          if (!o.paused) o.pause();
          seekTo(o, video.currentTime);
        }
      };
      const onSeeked = () => {
        for (const o of others(video)) seekTo(o, video.currentTime);
      };
      const onTime = () => {
        if (video.paused) return;
        for (const o of others(video))
          if (!o.paused && Math.abs(o.currentTime - video.currentTime) > DRIFT) seekTo(o, video.currentTime);
      };
      video.addEventListener("play", onPlay);
      video.addEventListener("pause", onPause);
      video.addEventListener("seeked", onSeeked);
      video.addEventListener("timeupdate", onTime);
      return () => {
        videos.delete(video);
        video.removeEventListener("play", onPlay);
        video.removeEventListener("pause", onPause);
        video.removeEventListener("seeked", onSeeked);
        video.removeEventListener("timeupdate", onTime);
      };
    },
  };
}
