/**
 * Time and memory bounds for every step of the media pipeline (docs/architecture.md §6): external tools run
 * through `runTool`, in-process work that can spin (PDFium, TF.js, both WebAssembly) runs in a
 * `createSerialWorker` thread that can be terminated. Everything ends in a `MediaError` whose
 * `reason` is short enough to show a user, while `message` keeps the detail for the logs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import {
  createSerialWorker as createWorkerThread,
  type SerialWorker,
  type SerialWorkerOptions,
} from "../platform/worker-threads.ts";

export {
  type SerialWorker,
  type SerialWorkerOptions,
  serveWorker,
  startModuleWorker,
  type WorkerCallOptions,
} from "../platform/worker-threads.ts";

/** A media step failed for a reason that belongs to the file (or a limit), not to the server. */
export class MediaError extends Error {
  override name = "MediaError";
  /** Short, user-facing, e.g. "Video could not be decoded". */
  readonly reason: string;
  constructor(reason: string, detail?: string, options?: { cause?: unknown }) {
    super(detail ? `${reason}: ${detail}` : reason, options);
    this.reason = reason;
  }
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Rejects with `MediaError(reason)` if `promise` has not settled within `ms`. It cannot stop the
 * work itself: use it only for asynchronous steps that really yield (never around synchronous
 * WebAssembly, which blocks the event loop — that belongs in `createSerialWorker`).
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, reason: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new MediaError(reason, `timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Absolute path of an executable on PATH, or null. No shell, no `which` dependency. */
export function findExecutable(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return null;
}

let prlimitPath: string | null | undefined;
/** `prlimit` (util-linux) sets RLIMIT_AS on Linux, then execs the tool in the same process. */
function prlimit(): string | null {
  if (prlimitPath === undefined) prlimitPath = process.platform === "linux" ? findExecutable("prlimit") : null;
  return prlimitPath;
}

export interface RunToolOptions {
  timeoutMs: number;
  /** Stdout beyond this fails the run (a hostile file must not fill memory); stderr keeps its tail. */
  maxOutputBytes: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Address-space cap via prlimit --as; 0 disables. Without prlimit (macOS, minimal images) the
   * only memory bound is the input limits of each caller — the time limit still applies. */
  memoryBytes?: number;
  /** User-facing reason for the MediaError (default "Media processing failed"). */
  reason?: string;
}

export const DEFAULT_TOOL_MEMORY_BYTES = 2 * 1024 ** 3;
const STDERR_TAIL_BYTES = 16 * 1024;

/** Running tool process groups, killed if the server exits so no ffmpeg/soffice outlives it. */
const live = new Set<number>();
let exitHookInstalled = false;
function killGroup(pid: number) {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** Last few stderr lines: ffmpeg and soffice put the useful part of an error at the end. */
export function lastLines(text: string, count = 4): string {
  return text.trim().split(/\r?\n/).slice(-count).join(" | ").slice(-600);
}

/**
 * Runs `cmd args` without a shell, in its own process group (so a timeout kills children too),
 * with bounded output capture and, on Linux, an address-space limit.
 */
export function runTool(
  cmd: string,
  args: readonly string[],
  options: RunToolOptions,
): Promise<{ stdout: string; stderr: string }> {
  const reason = options.reason ?? "Media processing failed";
  const tool = path.basename(cmd);
  const memory = options.memoryBytes ?? DEFAULT_TOOL_MEMORY_BYTES;
  const limiter = memory > 0 ? prlimit() : null;
  const [file, argv] = limiter ? [limiter, [`--as=${memory}`, "--", cmd, ...args]] : [cmd, [...args]];
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const pid of live) killGroup(pid);
    });
  }
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(file, argv, {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true, // own process group: process.kill(-pid) reaches grandchildren (soffice.bin)
        windowsHide: true,
      });
    } catch (err) {
      reject(new MediaError(reason, `${tool} could not be started: ${errorText(err)}`));
      return;
    }
    const pid = child.pid;
    if (pid) live.add(pid);
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = Buffer.alloc(0);
    let settled = false;
    const finish = (err: MediaError | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (pid) {
        // Kill stragglers of the group even on success (daemonised helpers); harmless if empty.
        killGroup(pid);
        live.delete(pid);
      }
      if (err) reject(err);
      else resolve({ stdout: Buffer.concat(stdout).toString("utf8"), stderr: stderr.toString("utf8") });
    };
    const timer = setTimeout(() => {
      finish(new MediaError(reason, `${tool} timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    child.stdout?.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > options.maxOutputBytes) {
        finish(new MediaError(reason, `${tool} wrote more than ${options.maxOutputBytes} bytes`));
        return;
      }
      stdout.push(chunk);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > STDERR_TAIL_BYTES) stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES);
    });
    child.on("error", (err) => finish(new MediaError(reason, `${tool} could not be started: ${err.message}`)));
    child.on("close", (code, signal) => {
      if (code === 0) return finish(null);
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const tail = lastLines(stderr.toString("utf8"));
      finish(new MediaError(reason, `${tool} ${how}${tail ? `: ${tail}` : ""}`));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Worker threads for in-process WebAssembly. V8 can interrupt a running wasm loop only by
// terminating its thread, so hang-prone work lives in a worker that is killed on timeout and
// started again for the next call.

/** Worker threads (platform/worker-threads.ts) whose failures are MediaErrors, as every media step's are. */
export function createSerialWorker(options: SerialWorkerOptions): SerialWorker {
  return createWorkerThread({ ...options, failure: (reason, detail) => new MediaError(reason, detail) });
}
