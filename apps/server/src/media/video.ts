/**
 * Video metadata and renditions with ffmpeg/ffprobe (docs/architecture.md §6): `probeVideo` for duration,
 * display size and codecs, `transcodeVideo` for `web.mp4` (H.264/AAC, faststart) and `videoPoster`
 * for `thumbnail.jpg`. Every run goes through `runTool` (time limit, memory cap, no shell).
 *
 * Hostile input: uploads are opened with only the `file`/`pipe` protocols (no http, tcp, crypto,
 * concat…) and only the real container demuxers below. Playlist-like formats (HLS, concat, DASH,
 * image sequences) are refused at open time, because they can point ffmpeg at the network or at
 * other local files and copy those into a rendition.
 */
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { ffmpegPath, ffprobePath } from "./ffmpeg-binaries.ts";
import { MediaError, runTool } from "./limits.ts";

export { chooseBinary, ffmpegPath, ffprobePath } from "./ffmpeg-binaries.ts";

/** Input options for every ffmpeg/ffprobe run on an uploaded file. */
const PROTOCOLS = "file,pipe";
const DEMUXERS = [
  "mov,mp4,m4a,3gp,3g2,mj2",
  "matroska,webm",
  "avi",
  "flv",
  "mpegts",
  "mpeg",
  "mpegvideo",
  "asf",
  "ogg",
  "mxf",
  "dv",
  "h264",
  "hevc",
  "m4v",
  "ivf",
  "nut",
  "rm",
].join(",");
const inputGuards = ["-protocol_whitelist", PROTOCOLS, "-format_whitelist", DEMUXERS];

export const WEB_LONG_SIDE = 1280;
export const POSTER_LONG_SIDE = 1024;
/** Pixel limit before decoding (docs/architecture.md §7): 8K is plenty for a DAM. */
const MAX_PIXELS = 8192 * 8192;
const PROBE_TIMEOUT_MS = 20_000;
const POSTER_TIMEOUT_MS = 60_000;
const TRANSCODE_MIN_MS = 60_000;
const TRANSCODE_MAX_MS = 10 * 60_000;

export const UNDECODABLE = "Video could not be decoded";

// --- probe -----------------------------------------------------------------------------------

export interface VideoInfo {
  /** Seconds; 0 when the container does not say (raw elementary streams). */
  duration: number;
  /** Display size: sample aspect ratio and rotation applied. */
  width: number;
  height: number;
  videoCodec: string;
  audioCodec: string | null;
  hasAudio: boolean;
}

interface ProbeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  sample_aspect_ratio?: string;
  avg_frame_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

/** What transcoding needs beyond the public shape. */
interface Probed extends VideoInfo {
  videoIndex: number;
  audioIndex: number | null;
  frameRate: number;
}

/** A probe's answer, handed to the rendition steps so each file is probed once. */
export type VideoProbe = Probed & { fps: number | null };

const ratio = (s: string | undefined): number => {
  const [a, b] = (s ?? "").split(/[:/]/).map(Number);
  return a && b && Number.isFinite(a / b) ? a / b : 0;
};

async function probe(file: string): Promise<Probed> {
  const size = await stat(file).catch(() => null);
  if (!size?.isFile()) throw new MediaError(UNDECODABLE, "file not found");
  if (size.size === 0) throw new MediaError(UNDECODABLE, "the file is empty");
  const args = ["-v", "error", ...inputGuards, "-print_format", "json", "-show_format", "-show_streams", file];
  const { stdout } = await runTool(await ffprobePath(), args, {
    timeoutMs: PROBE_TIMEOUT_MS,
    maxOutputBytes: 4 << 20,
    reason: UNDECODABLE,
  });
  let parsed: { streams?: ProbeStream[]; format?: { duration?: string } };
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw new MediaError(UNDECODABLE, "ffprobe returned no readable description");
  }
  const streams = parsed.streams ?? [];
  // Cover art in MP4/MKV is a "video" stream too: never take it for the movie.
  const video = streams.find((s) => s.codec_type === "video" && !s.disposition?.attached_pic);
  if (!video?.width || !video.height) throw new MediaError(UNDECODABLE, "no video stream");
  if (video.width * video.height > MAX_PIXELS) {
    throw new MediaError("Video is too large", `${video.width}×${video.height} exceeds the pixel limit`);
  }
  const audio = streams.find((s) => s.codec_type === "audio") ?? null;
  const sar = ratio(video.sample_aspect_ratio) || 1;
  let width = Math.round(video.width * (sar > 1 ? sar : 1));
  let height = Math.round(video.height / (sar < 1 ? sar : 1));
  const rotation =
    video.side_data_list?.find((d) => typeof d.rotation === "number")?.rotation ?? Number(video.tags?.rotate ?? 0);
  if (Math.abs(rotation) % 180 === 90) [width, height] = [height, width];
  const duration = Number(parsed.format?.duration ?? video.duration ?? 0);
  return {
    duration: Number.isFinite(duration) && duration > 0 ? duration : 0,
    width,
    height,
    videoCodec: video.codec_name ?? "unknown",
    audioCodec: audio?.codec_name ?? null,
    hasAudio: audio !== null,
    videoIndex: video.index,
    audioIndex: audio?.index ?? null,
    frameRate: ratio(video.avg_frame_rate),
  };
}

/** Duration, display size and codecs. Zero-byte, truncated, playlist or network-referencing
 * files reject with a MediaError. */
export async function probeVideo(file: string): Promise<VideoProbe> {
  const probed = await probe(file);
  const { frameRate } = probed;
  return { ...probed, fps: frameRate > 0 && Number.isFinite(frameRate) ? Math.round(frameRate * 1000) / 1000 : null };
}

// --- renditions ------------------------------------------------------------------------------

/** Fit the long side into `longSide`; both sides even (H.264 4:2:0 needs it), rounded down so
 * nothing is ever upscaled, not even by a pixel. */
export function fitEven(width: number, height: number, longSide: number): { width: number; height: number } {
  const scale = Math.min(1, longSide / Math.max(width, height));
  const even = (n: number) => Math.max(2, 2 * Math.floor((n * scale + 1e-6) / 2));
  return { width: even(width), height: even(height) };
}

/** Generous for two cores (about real time plus a minute), capped so nothing runs unbounded. */
export function transcodeTimeoutMs(duration: number): number {
  if (!duration) return TRANSCODE_MAX_MS;
  return Math.min(TRANSCODE_MAX_MS, Math.max(TRANSCODE_MIN_MS, 60_000 + duration * 1000));
}

/** Writes to a temporary name and renames, so a failed run never leaves a half rendition. */
async function produce(outDir: string, name: string, run: (tmp: string) => Promise<void>): Promise<string> {
  await mkdir(outDir, { recursive: true });
  const final = path.join(outDir, name);
  const tmp = `${final}.part`;
  try {
    await run(tmp);
    const out = await stat(tmp).catch(() => null);
    if (!out?.size) throw new MediaError(UNDECODABLE, `ffmpeg produced no ${name}`);
    await rename(tmp, final);
    return final;
  } finally {
    await rm(tmp, { force: true });
  }
}

export interface VideoRendition {
  /** Name relative to outDir. */
  file: string;
  width: number;
  height: number;
  duration: number;
  /** The probe of web.mp4 itself (for steps that read it, such as the sprite). */
  probe: VideoProbe;
  /** With `withSprite`: the scrub-bar sprite made in the same pass (null when the duration is unknown). */
  sprite: VideoSprite | null;
}

/** `web.mp4`: H.264 (yuv420p, long side ≤ 1280, even sides) + AAC 128k, moov first (faststart),
 * metadata (GPS, device) stripped. Output size and duration are read back from the result. */
export async function transcodeVideo(
  file: string,
  outDir: string,
  probed?: VideoProbe,
  opts: { withSprite?: boolean } = {},
): Promise<VideoRendition> {
  const info = probed ?? (await probe(file));
  const { width, height } = fitEven(info.width, info.height, WEB_LONG_SIDE);
  // High-frame-rate phone clips (120/240 fps) are capped: the web copy is for previewing.
  const filters = [`scale=${width}:${height}:flags=bicubic`, "setsar=1", ...(info.frameRate > 60 ? ["fps=30"] : [])];
  // The sprite from the same decoded frames (a second output): a separate run decoded web.mp4 again.
  const sprite = opts.withSprite ? spritePlan(info) : null;
  const audio =
    info.audioIndex === null
      ? ["-an"]
      : ["-map", `0:${info.audioIndex}`, "-c:a", "aac", "-b:a", "128k", "-ac", "2", "-ar", "48000"];
  const ffmpeg = await ffmpegPath();
  const run = (tmp: string, spriteTmp: string | null) => {
    const video = spriteTmp
      ? [
          "-filter_complex",
          `[0:${info.videoIndex}]${filters.join(",")},split=2[web][s];[s]${spriteFilters(sprite!)}[sprite]`,
          ...["-map", "[web]"],
        ]
      : ["-map", `0:${info.videoIndex}`, "-vf", filters.join(",")];
    const args = [
      ...["-hide_banner", "-nostdin", "-v", "error", "-y", "-threads", "2", ...inputGuards, "-i", file],
      ...video,
      ...[...audio, "-sn", "-dn", "-map_metadata", "-1", "-map_chapters", "-1"],
      ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "23"],
      ...["-profile:v", "high", "-pix_fmt", "yuv420p", "-threads", "2", "-max_muxing_queue_size", "1024"],
      ...["-movflags", "+faststart", "-f", "mp4", tmp],
      ...(spriteTmp ? ["-map", "[sprite]", ...spriteOutput(spriteTmp)] : []),
    ];
    return runTool(ffmpeg, args, {
      timeoutMs: transcodeTimeoutMs(info.duration),
      maxOutputBytes: 1 << 20,
      reason: UNDECODABLE,
    });
  };
  await produce(outDir, "web.mp4", (tmp) =>
    sprite
      ? produce(outDir, "sprite.jpg", (spriteTmp) => run(tmp, spriteTmp).then(() => {})).then(() => {})
      : run(tmp, null).then(() => {}),
  );
  const out = await probeVideo(path.join(outDir, "web.mp4"));
  return { file: "web.mp4", width: out.width, height: out.height, duration: out.duration, probe: out, sprite };
}

/** `thumbnail.jpg`: the frame at 10 % of the duration (1 s when unknown), long side ≤ 1024.
 * Falls back to the first frame when the seek lands past the last decodable one. */
export async function videoPoster(
  file: string,
  outDir: string,
  probed?: VideoProbe,
): Promise<{ file: string; width: number; height: number }> {
  const info = probed ?? (await probe(file));
  const { width, height } = fitEven(info.width, info.height, POSTER_LONG_SIDE);
  const ffmpeg = await ffmpegPath();
  const grab = (at: number) =>
    produce(outDir, "thumbnail.jpg", async (tmp) => {
      const args = [
        ...["-hide_banner", "-nostdin", "-v", "error", "-y", "-threads", "2", "-ss", at.toFixed(3)],
        ...[...inputGuards, "-i", file, "-map", `0:${info.videoIndex}`, "-an", "-sn", "-dn", "-frames:v", "1"],
        ...["-vf", `scale=${width}:${height}:flags=bicubic,setsar=1`, "-q:v", "3", "-f", "image2", "-update", "1", tmp],
      ];
      await runTool(ffmpeg, args, { timeoutMs: POSTER_TIMEOUT_MS, maxOutputBytes: 1 << 20, reason: UNDECODABLE });
    });
  const at = info.duration ? info.duration * 0.1 : 1;
  try {
    await grab(at);
  } catch (err) {
    // Only an empty result is worth a second try; a timeout or decode error would just repeat.
    if (at === 0 || !(err instanceof MediaError && err.message.includes("produced no"))) throw err;
    await grab(0);
  }
  return { file: "thumbnail.jpg", width, height };
}

/**
 * `name` in `outDir`: the frame shown at `at` seconds, as a JPEG at the video's own size (a comment
 * report draws a remark's shapes on it, issue 31). A time at or past the last frame gives the last one.
 */
export async function videoFrame(file: string, at: number, outDir: string, name: string): Promise<string> {
  const ffmpeg = await ffmpegPath();
  const grab = (from: number, last: boolean) =>
    produce(outDir, name, async (tmp) => {
      const args = [
        ...["-hide_banner", "-nostdin", "-v", "error", "-y", "-threads", "2", "-ss", from.toFixed(3)],
        ...[...inputGuards, "-i", file, "-map", "0:v:0", "-an", "-sn", "-dn"],
        // The last frame: every frame from a second before, each replacing the one before it.
        ...(last ? [] : ["-frames:v", "1"]),
        ...["-vf", "setsar=1", "-q:v", "3", "-f", "image2", "-update", "1", tmp],
      ];
      await runTool(ffmpeg, args, { timeoutMs: POSTER_TIMEOUT_MS, maxOutputBytes: 1 << 20, reason: UNDECODABLE });
    });
  try {
    return await grab(Math.max(0, at), false);
  } catch (err) {
    // Past the last decodable frame the seek finds nothing: take the last one instead.
    if (!(err instanceof MediaError && err.message.includes("produced no"))) throw err;
    return grab(Math.max(0, at - 1), true);
  }
}

/** Where each frame of `sprite.jpg` sits: `columns` × `rows` tiles of `width` × `height`, one every `interval` s. */
export interface VideoSprite {
  file: "sprite.jpg";
  columns: number;
  rows: number;
  interval: number;
  width: number;
  height: number;
}

const SPRITE_TILE_WIDTH = 160;
const SPRITE_MAX_FRAMES = 100;
const SPRITE_COLUMNS = 10;

/**
 * `sprite.jpg`: up to 100 frames spread evenly over the video in one tiled image, for the player's
 * scrub-bar previews (one request, whatever the position hovered).
 */
export async function videoSprite(file: string, outDir: string, probed?: VideoProbe): Promise<VideoSprite | null> {
  const info = probed ?? (await probe(file));
  const sprite = spritePlan(info);
  if (!sprite) return null;
  const ffmpeg = await ffmpegPath();
  await produce(outDir, "sprite.jpg", async (tmp) => {
    const args = [
      ...["-hide_banner", "-nostdin", "-v", "error", "-y", "-threads", "2", ...inputGuards, "-i", file],
      ...["-map", `0:${info.videoIndex}`, "-vf", spriteFilters(sprite), ...spriteOutput(tmp)],
    ];
    await runTool(ffmpeg, args, {
      timeoutMs: transcodeTimeoutMs(info.duration),
      maxOutputBytes: 1 << 20,
      reason: UNDECODABLE,
    });
  });
  return sprite;
}

/** The sprite's layout for a video: one tile every `interval` s, at most 100, ten to a row. */
function spritePlan(info: Probed): VideoSprite | null {
  if (!info.duration || info.duration <= 0) return null;
  const interval = Math.max(1, Math.ceil((info.duration / SPRITE_MAX_FRAMES) * 10) / 10);
  const frames = Math.min(SPRITE_MAX_FRAMES, Math.max(1, Math.ceil(info.duration / interval)));
  const columns = Math.min(SPRITE_COLUMNS, frames);
  const rows = Math.ceil(frames / columns);
  const { width, height } = fitEven(info.width, info.height, SPRITE_TILE_WIDTH);
  return { file: "sprite.jpg", columns, rows, interval, width, height };
}

const spriteFilters = (s: VideoSprite) =>
  `fps=1/${s.interval},scale=${s.width}:${s.height}:flags=bicubic,setsar=1,tile=${s.columns}x${s.rows}`;
const spriteOutput = (tmp: string) => [
  "-an",
  "-sn",
  "-dn",
  "-frames:v",
  "1",
  "-q:v",
  "5",
  "-f",
  "image2",
  "-update",
  "1",
  tmp,
];
