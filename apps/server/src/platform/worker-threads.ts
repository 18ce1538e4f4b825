/**
 * Worker threads for in-process work that can spin or must not block the event loop (WebAssembly
 * decoders and models in media/, hashing in storage/): a lazily started, single-flight thread with
 * per-call timeouts, termination and restart. Generic, so storage and media share it without either
 * importing the other.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, type TransferListItem, Worker } from "node:worker_threads";

/** A worker call failed, timed out or lost its thread; `reason` is short enough to show a user. */
export class WorkerCallError extends Error {
  override name = "WorkerCallError";
  readonly reason: string;
  constructor(reason: string, detail?: string) {
    super(detail ? `${reason}: ${detail}` : reason);
    this.reason = reason;
  }
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

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
  /** The error a failed call rejects with (default WorkerCallError); media makes it a MediaError. */
  failure?: (reason: string, detail: string) => Error;
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
  const fail = options.failure ?? ((reason: string, detail: string) => new WorkerCallError(reason, detail));

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
        throw fail(opts.reason, err.message);
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
      if (closed) throw fail(opts.reason, `${options.name} is closed`);
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
