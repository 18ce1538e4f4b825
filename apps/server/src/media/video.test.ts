import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MediaError, runTool } from "./limits.ts";
import {
  chooseBinary,
  ffmpegPath,
  ffprobePath,
  fitEven,
  probeVideo,
  transcodeTimeoutMs,
  transcodeVideo,
  UNDECODABLE,
  videoPoster,
  videoSprite,
} from "./video.ts";

let dir: string;
let ffmpeg: string;

/** Fixture generator: every input is synthesised here with lavfi, nothing is checked in. */
async function synth(name: string, args: string[]): Promise<string> {
  const out = path.join(dir, name);
  await runTool(ffmpeg, ["-hide_banner", "-nostdin", "-v", "error", "-y", ...args, out], {
    timeoutMs: 60_000,
    maxOutputBytes: 1 << 20,
  });
  return out;
}

/** Top-level MP4 box offsets: faststart means `moov` comes before `mdat`. */
async function topLevelBoxes(file: string): Promise<Map<string, number>> {
  const buf = await readFile(file);
  const boxes = new Map<string, number>();
  let offset = 0;
  while (offset + 8 <= buf.length) {
    let size = buf.readUInt32BE(offset);
    const type = buf.toString("latin1", offset + 4, offset + 8);
    if (size === 1) size = Number(buf.readBigUInt64BE(offset + 8));
    if (!boxes.has(type)) boxes.set(type, offset);
    if (size < 8) break;
    offset += size;
  }
  return boxes;
}

async function streamDetails(file: string) {
  const { stdout } = await runTool(
    await ffprobePath(),
    ["-v", "error", "-print_format", "json", "-show_streams", file],
    { timeoutMs: 20_000, maxOutputBytes: 1 << 20 },
  );
  return (JSON.parse(stdout) as { streams: { codec_type: string; pix_fmt?: string; profile?: string }[] }).streams;
}

async function expectMediaError(promise: Promise<unknown>, reason = UNDECODABLE): Promise<MediaError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MediaError);
  expect((err as MediaError).reason).toBe(reason);
  return err as MediaError;
}

let small: string;
let big: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "hangar-video-"));
  ffmpeg = await ffmpegPath();
  // Default mp4 muxing puts moov at the end: a truncated copy loses it, like a cut-off upload.
  small = await synth("small.mp4", [
    ...["-f", "lavfi", "-i", "testsrc=size=640x360:rate=25:duration=2"],
    ...["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2"],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"],
  ]);
  big = await synth("big.mp4", [
    ...["-f", "lavfi", "-i", "testsrc=size=1920x1080:rate=25:duration=1"],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"],
  ]);
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("ffmpeg binaries", () => {
  it("resolves runnable ffmpeg and ffprobe once", async () => {
    const [a, b] = [await ffmpegPath(), await ffprobePath()];
    expect(a).toMatch(/ffmpeg$/);
    expect(b).toMatch(/ffprobe$/);
    expect(await ffmpegPath()).toBe(a);
  });

  it("prefers a system ffmpeg only when it runs and is a newer major version", async () => {
    const bundled = (createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path: string }).path;
    const fake = async (name: string, script: string) => {
      const bin = path.join(dir, name);
      await mkdir(bin, { recursive: true });
      await writeFile(path.join(bin, "ffmpeg"), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
      return bin;
    };
    const saved = process.env.PATH;
    try {
      process.env.PATH = await fake("bin-new", 'echo "ffmpeg version 99.1 Copyright (c) fake"');
      expect(await chooseBinary("ffmpeg", "@ffmpeg-installer/ffmpeg")).toBe(path.join(dir, "bin-new", "ffmpeg"));
      process.env.PATH = await fake("bin-old", 'echo "ffmpeg version 2.8.1 Copyright (c) fake"');
      expect(await chooseBinary("ffmpeg", "@ffmpeg-installer/ffmpeg")).toBe(bundled);
      process.env.PATH = await fake("bin-broken", "exit 1");
      expect(await chooseBinary("ffmpeg", "@ffmpeg-installer/ffmpeg")).toBe(bundled);
    } finally {
      process.env.PATH = saved;
    }
  });

  it("sizes renditions evenly without upscaling, with bounded time limits", () => {
    expect(fitEven(1920, 1080, 1280)).toEqual({ width: 1280, height: 720 });
    expect(fitEven(641, 361, 1280)).toEqual({ width: 640, height: 360 });
    expect(fitEven(1080, 1920, 1280)).toEqual({ width: 720, height: 1280 });
    expect(fitEven(4000, 10, 1280)).toEqual({ width: 1280, height: 2 });
    expect(transcodeTimeoutMs(2)).toBe(62_000);
    expect(transcodeTimeoutMs(300)).toBe(360_000);
    expect(transcodeTimeoutMs(7200)).toBe(600_000);
    expect(transcodeTimeoutMs(0)).toBe(600_000);
  });
});

describe("probeVideo", () => {
  it("reads duration, display size and codecs", async () => {
    const info = await probeVideo(small);
    expect(info.duration).toBeGreaterThan(1.9);
    expect(info.duration).toBeLessThan(2.2);
    expect(info).toMatchObject({ width: 640, height: 360, videoCodec: "h264", audioCodec: "aac", hasAudio: true });
  });

  it("applies rotation to the display size", async () => {
    const rotated = await synth("rotated.mp4", ["-i", small, "-c", "copy", "-metadata:s:v:0", "rotate=90"]);
    const info = await probeVideo(rotated);
    expect([info.width, info.height]).toEqual([360, 640]);
  });

  it("refuses an HLS playlist pointing at the network, fast", async () => {
    // Port 9 (discard) on loopback: nothing listens, and nothing may ever be fetched anyway.
    const m3u8 = path.join(dir, "evil.m3u8");
    await writeFile(m3u8, "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nhttp://127.0.0.1:9/x.ts\n#EXT-X-ENDLIST\n");
    const started = performance.now();
    const err = await expectMediaError(probeVideo(m3u8));
    expect(performance.now() - started).toBeLessThan(3000);
    expect(err.message).toMatch(/whitelist/i);
    await expectMediaError(transcodeVideo(m3u8, path.join(dir, "evil-out")));
  });

  it("rejects zero-byte, truncated and garbage files with a reason", async () => {
    const empty = path.join(dir, "empty.mp4");
    await writeFile(empty, "");
    expect((await expectMediaError(probeVideo(empty))).message).toMatch(/empty/);

    const whole = await readFile(small);
    const truncated = path.join(dir, "truncated.mp4");
    await writeFile(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    const err = await expectMediaError(probeVideo(truncated));
    expect(err.message).toMatch(/ffprobe exited with code/);
    await expectMediaError(transcodeVideo(truncated, path.join(dir, "truncated-out")));

    const garbage = path.join(dir, "garbage.mp4");
    await writeFile(garbage, Buffer.alloc(64 * 1024, 0x5a));
    await expectMediaError(probeVideo(garbage));
  });
});

describe("renditions", () => {
  it("transcodes to a faststart H.264/AAC web.mp4 without upscaling", async () => {
    const out = path.join(dir, "small-out");
    const started = performance.now();
    const web = await transcodeVideo(small, out);
    const ms = performance.now() - started;
    expect(web).toMatchObject({ file: "web.mp4", width: 640, height: 360 });
    expect(web.duration).toBeGreaterThan(1.9);
    const info = await probeVideo(path.join(out, "web.mp4"));
    expect(info).toMatchObject({ videoCodec: "h264", audioCodec: "aac", hasAudio: true });
    const streams = await streamDetails(path.join(out, "web.mp4"));
    expect(streams.find((s) => s.codec_type === "video")?.pix_fmt).toBe("yuv420p");
    const boxes = await topLevelBoxes(path.join(out, "web.mp4"));
    expect(boxes.get("moov")).toBeLessThan(boxes.get("mdat")!);
    // No half-written leftovers.
    await expect(stat(path.join(out, "web.mp4.part"))).rejects.toThrow();
    process.stdout.write(`transcode 2 s 640×360: ${ms.toFixed(0)} ms\n`);
  });

  it("writes a poster at the video's aspect ratio", async () => {
    const out = path.join(dir, "small-out");
    const poster = await videoPoster(small, out);
    expect(poster).toEqual({ file: "thumbnail.jpg", width: 640, height: 360 });
    const meta = await sharp(path.join(out, "thumbnail.jpg")).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 640, 360]);
  });

  it("scales a 1080p source to 1280×720 and its poster to 1024×576", async () => {
    const out = path.join(dir, "big-out");
    const web = await transcodeVideo(big, out);
    expect([web.width, web.height]).toEqual([1280, 720]);
    const info = await probeVideo(path.join(out, "web.mp4"));
    expect(info).toMatchObject({ width: 1280, height: 720, hasAudio: false, audioCodec: null });
    const poster = await videoPoster(big, out);
    expect([poster.width, poster.height]).toEqual([1024, 576]);
    const meta = await sharp(path.join(out, "thumbnail.jpg")).metadata();
    expect([meta.width, meta.height]).toEqual([1024, 576]);
  });

  it("makes the scrub-bar sprite in the same pass as web.mp4, as the separate run does", async () => {
    const one = path.join(dir, "sprite-one-pass");
    const web = await transcodeVideo(small, one, undefined, { withSprite: true });
    const two = path.join(dir, "sprite-two-pass");
    const alone = await videoSprite(small, two);
    expect(web.sprite).toEqual(alone);
    expect(web.sprite).toMatchObject({ file: "sprite.jpg", rows: 1, interval: 1, width: 160, height: 90 });
    const meta = await sharp(path.join(one, "sprite.jpg")).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 160 * web.sprite!.columns, 90]);
    // The web copy is the same as without the sprite; no half-written leftovers of either.
    expect(await probeVideo(path.join(one, "web.mp4"))).toMatchObject({ width: 640, height: 360, videoCodec: "h264" });
    await expect(stat(path.join(one, "sprite.jpg.part"))).rejects.toThrow();
    await expect(stat(path.join(one, "web.mp4.part"))).rejects.toThrow();
  });
});
