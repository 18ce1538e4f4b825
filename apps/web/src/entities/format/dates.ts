/**
 * Relative time of spec 02 §9: "just now" under a minute, "Nm ago", "Nh ago" under 24 hours,
 * "Nd ago" under 7 days, then a locale date; "N/A" when there is no date.
 */
export function relativeTime(iso: string | null | undefined, now: number = Date.now(), locale?: string): string {
  if (!iso) return "N/A";
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return "N/A";
  const diff = Math.max(0, now - time);
  const minutes = Math.floor(diff / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days}d ago`;
  return new Date(time).toLocaleDateString(locale);
}

/** A video's length on its card and in its details: m:ss, h:mm:ss from an hour (whole seconds, rounded). */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/**
 * A video time: m:ss (h:mm:ss from an hour); with `fps`, the reviewers' hh:mm:ss:ff timecode
 * (frames counted from 0 within the second).
 */
export function timecode(seconds: number, fps?: number | null): string {
  const s = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
  const whole = Math.floor(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = whole % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  if (!fps) return h > 0 ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
  const frame = Math.min(Math.floor((s - whole) * fps + 1e-6), Math.ceil(fps) - 1);
  return `${pad(h)}:${pad(m)}:${pad(sec)}:${pad(frame)}`;
}
