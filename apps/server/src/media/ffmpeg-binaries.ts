/**
 * Which ffmpeg and ffprobe run (docs/architecture.md §6): the binaries the npm packages ship, or the
 * system's when its major version is newer. Decided once per process.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { findExecutable, MediaError, runTool } from "./limits.ts";

const requireCjs = createRequire(import.meta.url);

// --- binaries --------------------------------------------------------------------------------

interface Installer {
  path: string;
}

/** Major version from `-version`; static "N-12345-g…" snapshots carry none, so fall back to the
 * npm package's own version (the installer names its packages after the FFmpeg release). */
async function majorVersion(binary: string, packageJson?: string): Promise<number | null> {
  try {
    const { stdout } = await runTool(binary, ["-version"], { timeoutMs: 10_000, maxOutputBytes: 1 << 20 });
    const m = /version\s+n?(\d+)\.(\d+)/i.exec(stdout);
    if (m) return Number(m[1]);
  } catch {
    return null; // not runnable: never choose it
  }
  if (packageJson) {
    try {
      const version = (requireCjs(packageJson) as { version?: string }).version ?? "";
      const m = /^(\d+)\./.exec(version);
      if (m) return Number(m[1]);
    } catch {
      // no package.json: version unknown but the binary runs
    }
  }
  return 0;
}

/** The rule behind ffmpegPath/ffprobePath, uncached: the npm binary, unless `tool` on PATH runs
 * and reports a newer major version (distributions update theirs; the npm one is frozen). */
export async function chooseBinary(tool: "ffmpeg" | "ffprobe", installer: string): Promise<string> {
  let bundled: string | null = null;
  try {
    bundled = (requireCjs(installer) as Installer).path;
  } catch {
    // unsupported platform or package missing: only the system binary can help
  }
  const system = findExecutable(tool);
  const [bundledMajor, systemMajor] = await Promise.all([
    bundled ? majorVersion(bundled, path.join(path.dirname(bundled), "package.json")) : null,
    system ? majorVersion(system) : null,
  ]);
  if (system && systemMajor !== null && (bundledMajor === null || systemMajor > bundledMajor)) return system;
  if (bundled && bundledMajor !== null) return bundled;
  throw new MediaError("Video processing is unavailable", `no runnable ${tool} (npm package or PATH)`);
}

let ffmpegChoice: Promise<string> | undefined;
let ffprobeChoice: Promise<string> | undefined;

/** The npm-shipped ffmpeg, or the system one when its major version is newer. Decided once. */
export function ffmpegPath(): Promise<string> {
  ffmpegChoice ??= chooseBinary("ffmpeg", "@ffmpeg-installer/ffmpeg");
  return ffmpegChoice;
}

/** Same rule for ffprobe. */
export function ffprobePath(): Promise<string> {
  ffprobeChoice ??= chooseBinary("ffprobe", "@ffprobe-installer/ffprobe");
  return ffprobeChoice;
}
