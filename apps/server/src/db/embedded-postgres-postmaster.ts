// Runs and supervises the postmaster: picks a free port (retrying when it was taken in the
// meantime), waits until it accepts connections, routes its log into the application logger,
// restarts it when it dies unexpectedly, and shuts it down on request.
import { type ChildProcess, spawn } from "node:child_process";
import pg from "pg";
import type { PgLogger } from "./embedded-postgres.ts";
import { type ClusterSecret, clearStalePostmaster } from "./embedded-postgres-cluster.ts";
import {
  describeExit,
  EmbeddedPostgresError,
  errorMessage,
  forEachLine,
  freePort,
  isPortFree,
  LogTail,
  pgSpawnOptions,
  type RunAs,
  sleep,
} from "./embedded-postgres-support.ts";

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;
const START_ATTEMPTS = 5;
const MAX_RESTARTS_PER_MINUTE = 5;

export interface PostmasterConfig {
  postgresBin: string;
  dataDir: string;
  realDir: string;
  runAs: RunAs | null;
  log: PgLogger;
  secret: ClusterSecret;
  fixedPort?: number;
}

interface Running {
  child: ChildProcess;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>;
  done: boolean;
}

type LaunchResult = { ok: true } | { ok: false; kind: "bind" | "shmem" | "fatal"; message: string };

/** Resolves to true if `promise` settles within `ms`; clears its timer so it never holds the event loop. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const LEVEL_RE =
  /\b(DEBUG\d?|LOG|INFO|NOTICE|WARNING|ERROR|FATAL|PANIC|DETAIL|HINT|CONTEXT|STATEMENT|QUERY|LOCATION):\s/;
const TIMESTAMP_RE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ /;

export class Postmaster {
  port = 0;
  private current: Running | null = null;
  private tail = new LogTail(20);
  private stopping = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private restarting: Promise<void> | null = null;
  private restartTimes: number[] = [];
  private lastLevel: "info" | "warn" | "error" = "info";

  constructor(private readonly cfg: PostmasterConfig) {}

  url(database: string): string {
    const { user, password } = this.cfg.secret;
    return `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${this.port}/${encodeURIComponent(database)}`;
  }

  /** Starts the postmaster, trying `preferredPort` first (used on restarts to keep the URL stable). */
  async start(preferredPort?: number): Promise<void> {
    const { fixedPort, log } = this.cfg;
    let usePreferred = preferredPort !== undefined;
    let lastFailure = "";
    for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      if (this.stopping) throw new EmbeddedPostgresError("embedded PostgreSQL was stopped while starting");
      let port: number;
      if (fixedPort !== undefined) port = fixedPort;
      else if (usePreferred && preferredPort !== undefined && (await isPortFree(preferredPort))) port = preferredPort;
      else port = await freePort();
      const result = await this.launch(port);
      if (result.ok) {
        this.port = port;
        return;
      }
      lastFailure = result.message;
      if (result.kind === "bind" && fixedPort === undefined) {
        // Another program took the port between our probe and postgres binding it.
        log.warn({ port }, "port was taken before PostgreSQL could bind it; retrying with another port");
        usePreferred = false;
        continue;
      }
      if (result.kind === "shmem") {
        // Backends of a killed postmaster exit shortly after noticing its death.
        log.warn({ attempt }, "processes of a previous PostgreSQL still hold shared memory; retrying shortly");
        await sleep(500 * attempt);
        continue;
      }
      throw new EmbeddedPostgresError(result.message);
    }
    throw new EmbeddedPostgresError(`PostgreSQL could not start after ${START_ATTEMPTS} attempts: ${lastFailure}`);
  }

  private args(port: number): string[] {
    const settings = [
      "listen_addresses=127.0.0.1",
      // No Unix socket: avoids socket-path length limits and permission issues on odd directories.
      "unix_socket_directories=",
      "max_connections=100",
      "shared_buffers=128MB",
      "fsync=on",
      "log_checkpoints=off",
    ];
    return ["-D", this.cfg.realDir, "-p", String(port), ...settings.flatMap((s) => ["-c", s])];
  }

  private routeLogLine(line: string): void {
    const text = line.replace(TIMESTAMP_RE, "");
    const level = LEVEL_RE.exec(text)?.[1] ?? "";
    // Our own readiness poll meets this while PostgreSQL starts: expected, not an error.
    if (level === "FATAL" && text.includes("the database system is starting up")) this.lastLevel = "info";
    else if (["FATAL", "PANIC", "ERROR"].includes(level)) this.lastLevel = "error";
    else if (level === "WARNING") this.lastLevel = "warn";
    else if (!["DETAIL", "HINT", "CONTEXT", "STATEMENT", "QUERY", "LOCATION"].includes(level) && level !== "") {
      this.lastLevel = "info";
    }
    // Continuation lines (DETAIL, HINT, tab-indented) keep the level of the line they belong to.
    this.cfg.log[this.lastLevel]({ source: "postgres" }, text);
  }

  private spawnPostmaster(port: number): Running {
    const tail = new LogTail(20);
    this.tail = tail;
    // detached: its own process group, so a Ctrl-C in the terminal reaches only Hangar, which then
    // calls stop(); otherwise postgres would shut down on its own and race with the supervisor.
    const child = spawn(this.cfg.postgresBin, this.args(port), {
      ...pgSpawnOptions(this.cfg.runAs),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const running: Running = {
      child,
      done: false,
      exit: new Promise((resolve) => {
        child.once("exit", (code, signal) => resolve({ code, signal }));
        child.once("error", (error) => resolve({ code: null, signal: null, error }));
      }),
    };
    void running.exit.then(() => {
      running.done = true;
    });
    const onLine = (line: string) => {
      tail.push(line);
      this.routeLogLine(line);
    };
    forEachLine(child.stdout, onLine);
    forEachLine(child.stderr, onLine);
    return running;
  }

  private async launch(port: number): Promise<LaunchResult> {
    const running = this.spawnPostmaster(port);
    const tail = this.tail;
    this.current = running;
    let exitInfo: Awaited<Running["exit"]> | null = null;
    void running.exit.then((e) => {
      exitInfo = e;
    });
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let lastError = "";
    while (!running.done && !this.stopping && Date.now() < deadline) {
      try {
        await this.probe(port);
        // Via the promise, not a new "exit" listener: the child may already have exited by now.
        void running.exit.then(({ code, signal }) => {
          if (this.current === running && !this.stopping) this.onUnexpectedExit(code, signal);
        });
        return { ok: true };
      } catch (err) {
        lastError = errorMessage(err);
      }
      // Short fixed interval: a warm start is ready within ~50 ms, and a failed connect is cheap.
      await sleep(25);
    }
    if (!running.done) await this.terminate(running);
    this.current = null;
    await sleep(20); // let the last stderr lines arrive for the message below
    const info = exitInfo as Awaited<Running["exit"]> | null;
    if (info?.error) {
      return { ok: false, kind: "fatal", message: `could not run ${this.cfg.postgresBin}: ${info.error.message}` };
    }
    const output = tail.text();
    if (this.stopping) return { ok: false, kind: "fatal", message: "embedded PostgreSQL was stopped while starting" };
    if (!info || Date.now() >= deadline) {
      return {
        ok: false,
        kind: "fatal",
        message: `PostgreSQL did not accept connections within ${READY_TIMEOUT_MS / 1000} s (last connection error: ${lastError}); last log lines:\n${output}`,
      };
    }
    const kind = /could not bind|address already in use|could not create any TCP\/IP sockets/i.test(output)
      ? "bind"
      : /pre-existing shared memory block .* is still in use/i.test(output)
        ? "shmem"
        : "fatal";
    return {
      ok: false,
      kind,
      message: `PostgreSQL exited during startup (${describeExit(info.code, info.signal)}); last log lines:\n${output}`,
    };
  }

  private async probe(port: number): Promise<void> {
    const { user, password } = this.cfg.secret;
    const client = new pg.Client({
      host: "127.0.0.1",
      port,
      user,
      password,
      database: "postgres",
      connectionTimeoutMillis: 2_000,
    });
    client.on("error", () => {}); // failures surface through connect(); never as an unhandled event
    try {
      await client.connect();
      await client.query("select 1");
    } finally {
      await client.end().catch(() => {});
    }
  }

  private onUnexpectedExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.current = null;
    this.cfg.log.error(
      { exit: describeExit(code, signal), lastLogLines: this.tail.text() },
      "PostgreSQL exited unexpectedly; restarting it",
    );
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    if (this.stopping) return;
    const now = Date.now();
    this.restartTimes = this.restartTimes.filter((t) => now - t < 60_000);
    if (this.restartTimes.length >= MAX_RESTARTS_PER_MINUTE) {
      this.cfg.log.error(
        { attempts: this.restartTimes.length },
        "PostgreSQL keeps failing; gave up restarting it (restart Hangar once the cause is fixed)",
      );
      return;
    }
    const delay = 250 * 2 ** this.restartTimes.length;
    this.restartTimes.push(now);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.restarting = this.restart().finally(() => {
        this.restarting = null;
      });
    }, delay);
  }

  private async restart(): Promise<void> {
    const { log, dataDir, realDir } = this.cfg;
    const oldPort = this.port;
    try {
      await clearStalePostmaster(dataDir, realDir, log);
      await this.start(oldPort);
      if (this.port !== oldPort) {
        log.error(
          { oldPort, port: this.port },
          "PostgreSQL restarted on a different port; the old URL no longer works",
        );
      }
      log.info({ port: this.port }, "PostgreSQL restarted");
    } catch (err) {
      if (this.stopping) return;
      log.error({ err: errorMessage(err) }, "restarting PostgreSQL failed");
      this.scheduleRestart();
    }
  }

  /** Fast shutdown (SIGINT); SIGKILL if it has not exited after 15 s. */
  private async terminate(running: Running): Promise<void> {
    if (running.done) return;
    running.child.kill("SIGINT");
    if (await within(running.exit, STOP_TIMEOUT_MS)) return;
    this.cfg.log.warn({ pid: running.child.pid }, "PostgreSQL did not stop within 15 s; killing it");
    running.child.kill("SIGKILL");
    await within(running.exit, 10_000);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    if (this.restarting) await this.restarting;
    const running = this.current;
    this.current = null;
    if (running) await this.terminate(running);
  }
}
