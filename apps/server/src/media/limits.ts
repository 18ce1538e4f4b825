/**
 * Time and memory bounds for every step of the media pipeline (DESIGN.md §6): external tools run
 * through `runTool`, in-process work that can spin (PDFium, TF.js, both WebAssembly) runs in a
 * `createSerialWorker` thread that can be terminated. Everything ends in a `MediaError` whose
 * `reason` is short enough to show a user, while `message` keeps the detail for the logs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, type TransferListItem, Worker } from "node:worker_threads";

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

interface WorkerRequest {
  id: number;
  message: unknown;
}
type WorkerResponse = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

/**
 * Starts a worker from a module URL. The server runs TypeScript through tsx without a build, and
 * Node 20 cannot load `.ts` in a worker by itself, so `.ts` entries are loaded with tsx's
 * `tsImport` inside the new thread (scoped to that import; works under tsx, vitest and plain node).
 */
export function startModuleWorker(
  file: URL,
  options: { workerData?: unknown; maxOldGenerationSizeMb?: number; name?: string },
): Worker {
  const resourceLimits = options.maxOldGenerationSizeMb
    ? { maxOldGenerationSizeMb: options.maxOldGenerationSizeMb }
    : undefined;
  const common = { workerData: options.workerData, resourceLimits, name: options.name };
  if (!file.pathname.endsWith(".ts")) return new Worker(file, common);
  const source = `import(${JSON.stringify(tsxApiUrl())}).then((tsx) => tsx.tsImport(${JSON.stringify(file.href)}, ${JSON.stringify(file.href)}));`;
  return new Worker(source, { ...common, eval: true });
}

let tsxApi: string | undefined;
function tsxApiUrl(): string {
  if (!tsxApi) {
    // createRequire would pick tsx's CommonJS entry, which cannot register hooks from an eval'd
    // worker; read the package's own export map for the ESM entry instead.
    const pkgFile = createRequire(import.meta.url).resolve("tsx/package.json");
    const pkg = JSON.parse(readFileSync(pkgFile, "utf8")) as {
      exports: Record<string, { import: { default: string } }>;
    };
    const entry = pkg.exports["./esm/api"]?.import.default ?? "./dist/esm/api/index.mjs";
    tsxApi = pathToFileURL(path.join(path.dirname(pkgFile), entry)).href;
  }
  return tsxApi;
}

/** Worker side: answer each request with the handler's result (transfer lists for big buffers). */
export function serveWorker(handler: (message: never) => Promise<{ result: unknown; transfer?: TransferListItem[] }>) {
  const port = parentPort;
  if (!port) throw new Error("serveWorker must run inside a worker thread");
  port.on("message", async ({ id, message }: WorkerRequest) => {
    try {
      const { result, transfer } = await handler(message as never);
      port.postMessage({ id, ok: true, result } satisfies WorkerResponse, transfer);
    } catch (err) {
      port.postMessage({ id, ok: false, error: errorText(err) } satisfies WorkerResponse);
    }
  });
}

export interface WorkerCallOptions {
  timeoutMs: number;
  /** User-facing reason if the call fails, times out or the thread dies. */
  reason: string;
  transfer?: TransferListItem[];
}

export interface SerialWorker {
  /** Runs one request at a time; on timeout the thread is terminated and restarted lazily. */
  call<T>(message: unknown, options: WorkerCallOptions): Promise<T>;
  /** Terminates the thread now (e.g. to hand its WebAssembly memory back); next call restarts. */
  recycle(): Promise<void>;
  close(): Promise<void>;
  /** How many threads were started so far (tests use it to see restarts). */
  readonly starts: number;
  /** Whether a thread is up now (false after a timeout or crash, until the next call). */
  readonly running: boolean;
}

export interface SerialWorkerOptions {
  file: URL;
  name: string;
  workerData?: unknown;
  /** JS heap bound (V8 resourceLimits). WebAssembly memory is outside it: see each caller. */
  maxOldGenerationSizeMb?: number;
  /** Terminate after this long without calls, so an idle server does not hold model memory. */
  idleMs?: number;
  /** Sent to every freshly started thread before the first call (model or library loading). */
  init?: { message: unknown; timeoutMs: number; reason: string };
}

/** A lazily started, single-flight worker thread with per-call timeouts and restart on crash. */
export function createSerialWorker(options: SerialWorkerOptions): SerialWorker {
  type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };
  /** One started thread; its pending calls die with it, never with a successor. */
  interface Thread {
    worker: Worker;
    pending: Map<number, Pending>;
    ready: Promise<void>;
  }
  let thread: Thread | null = null;
  let nextId = 1;
  let starts = 0;
  let closed = false;
  let idleTimer: NodeJS.Timeout | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const stop = async (t: Thread | null = thread) => {
    if (!t) return;
    if (thread === t) thread = null;
    await t.worker.terminate();
  };

  const send = (t: Thread, message: unknown, opts: WorkerCallOptions): Promise<unknown> => {
    const id = nextId++;
    let timer: NodeJS.Timeout | undefined;
    const answer = new Promise<unknown>((resolve, reject) => {
      t.pending.set(id, { resolve, reject });
      timer = setTimeout(() => {
        t.pending.delete(id);
        // The thread may be stuck in WebAssembly: only terminating it stops the work.
        void stop(t);
        reject(new Error(`${options.name} timed out after ${opts.timeoutMs} ms`));
      }, opts.timeoutMs);
      t.worker.postMessage({ id, message } satisfies WorkerRequest, opts.transfer);
    });
    return answer
      .catch((err: Error) => {
        throw new MediaError(opts.reason, err.message);
      })
      .finally(() => clearTimeout(timer));
  };

  const start = (): Thread => {
    starts++;
    const worker = startModuleWorker(options.file, {
      workerData: options.workerData,
      maxOldGenerationSizeMb: options.maxOldGenerationSizeMb,
      name: options.name,
    });
    const t: Thread = { worker, pending: new Map(), ready: Promise.resolve() };
    const failAll = (detail: string) => {
      if (thread === t) thread = null;
      for (const p of t.pending.values()) p.reject(new Error(detail));
      t.pending.clear();
    };
    worker.on("message", (msg: WorkerResponse) => {
      const p = t.pending.get(msg.id);
      if (!p) return;
      t.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.result);
      else p.reject(new Error(msg.error));
    });
    worker.on("error", (err) => failAll(`${options.name} crashed: ${err.message}`));
    worker.on("exit", (code) => failAll(`${options.name} stopped (exit code ${code})`));
    if (options.init) {
      t.ready = send(t, options.init.message, options.init).then(() => undefined);
      t.ready.catch(() => void stop(t));
    }
    thread = t;
    return t;
  };

  const call = <T>(message: unknown, opts: WorkerCallOptions): Promise<T> => {
    const run = async () => {
      if (closed) throw new MediaError(opts.reason, `${options.name} is closed`);
      clearTimeout(idleTimer);
      const t = thread ?? start();
      t.worker.ref();
      try {
        await t.ready;
        return (await send(t, message, opts)) as T;
      } finally {
        if (thread === t) {
          // An idle thread must not keep the process alive, and gives its memory back after idleMs.
          t.worker.unref();
          if (options.idleMs) idleTimer = setTimeout(() => void stop(t), options.idleMs).unref();
        }
      }
    };
    const result = queue.then(run, run);
    queue = result.catch(() => undefined);
    return result;
  };

  return {
    call,
    recycle: () => {
      const r = queue.then(
        () => stop(),
        () => stop(),
      );
      queue = r.catch(() => undefined);
      return r;
    },
    close: async () => {
      closed = true;
      clearTimeout(idleTimer);
      await queue;
      await stop();
    },
    get starts() {
      return starts;
    },
    get running() {
      return thread !== null;
    },
  };
}
