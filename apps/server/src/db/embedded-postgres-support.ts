// Small building blocks shared by the embedded PostgreSQL modules: the error type, a bounded
// log tail (so every failure can carry the real reason), child-process helpers that can drop
// root privileges, /proc inspection and port helpers.
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import net from "node:net";
import type { Readable } from "node:stream";

/** Raised for every startup problem; the message always carries the underlying reason. */
export class EmbeddedPostgresError extends Error {
  override name = "EmbeddedPostgresError";
}

/** The unprivileged OS account PostgreSQL runs as when Hangar itself runs as root. */
export interface RunAs {
  name: string;
  uid: number;
  gid: number;
}

/** Keeps the last `max` lines of a child's output for error messages. */
export class LogTail {
  private readonly lines: string[] = [];
  constructor(private readonly max = 20) {}
  push(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.max) this.lines.shift();
  }
  text(): string {
    return this.lines.length > 0 ? this.lines.join("\n") : "(no output)";
  }
}

/** Calls `onLine` for each complete line of `stream` (and the unterminated rest at the end). */
export function forEachLine(stream: Readable | null, onLine: (line: string) => void): void {
  if (!stream) return;
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop() ?? "";
    for (const part of parts) if (part.trim() !== "") onLine(part);
  });
  stream.on("end", () => {
    if (rest.trim() !== "") onLine(rest);
    rest = "";
  });
}

export function describeExit(code: number | null, signal: NodeJS.Signals | string | null): string {
  if (signal) return `killed by signal ${signal}`;
  return `exit code ${code ?? "unknown"}`;
}

/**
 * Spawn options for PostgreSQL tools. The environment is minimal on purpose: stray PG* or
 * locale variables from the caller's shell must not change how the cluster is created. cwd is
 * "/" because the caller's cwd may be unreadable for the unprivileged user, and the child
 * would fail to chdir before exec.
 */
export function pgSpawnOptions(runAs: RunAs | null): SpawnOptions {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin", LANG: "C", LC_ALL: "C" };
  if (process.env.TZ) env.TZ = process.env.TZ;
  return { cwd: "/", env, ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}) };
}

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be spawned at all (ENOENT, EACCES, ...). */
  spawnError?: Error;
  output: LogTail;
}

/** Runs a short-lived command to completion, collecting the tail of stdout+stderr. */
export function runCommand(
  file: string,
  args: string[],
  options: SpawnOptions,
  tailLines = 20,
  timeoutMs = 120_000,
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const output = new LogTail(tailLines);
    let child: ChildProcess;
    try {
      child = spawn(file, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    } catch (err) {
      resolve({ code: null, signal: null, spawnError: err as Error, output });
      return;
    }
    forEachLine(child.stdout, (l) => output.push(l));
    forEachLine(child.stderr, (l) => output.push(l));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    let settled = false;
    const finish = (result: CommandResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    child.once("error", (err) => finish({ code: null, signal: null, spawnError: err, output }));
    // "close" (not "exit") so that the last output lines are in the tail.
    child.once("close", (code, signal) => finish({ code, signal, output }));
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface ProcInfo {
  comm: string;
  state: string;
  ppid: number;
  /** Start time in clock ticks since boot; tells a live process from a reused PID. */
  startTicks: number;
  cmdline: string[];
}

let procAvailable: boolean | undefined;
async function hasProc(): Promise<boolean> {
  if (procAvailable === undefined) {
    procAvailable = await stat("/proc/self/stat").then(
      () => true,
      () => false,
    );
  }
  return procAvailable;
}

/** Reads /proc/PID; null when the process does not exist (or /proc is unavailable). */
export async function readProc(pid: number): Promise<ProcInfo | null> {
  if (!(await hasProc())) return null;
  let statText: string;
  try {
    statText = await readFile(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // comm may contain spaces and parentheses, so split around the last ")".
  const open = statText.indexOf("(");
  const close = statText.lastIndexOf(")");
  const comm = statText.slice(open + 1, close);
  const fields = statText
    .slice(close + 2)
    .trim()
    .split(" ");
  const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").then(
    (t) => t.split("\0").filter((s) => s !== ""),
    () => [] as string[],
  );
  return {
    comm,
    state: fields[0] ?? "?",
    ppid: Number(fields[1] ?? 0),
    startTicks: Number(fields[19] ?? 0),
    cmdline,
  };
}

/** True while the PID exists at all, zombies included (PostgreSQL's lock check sees them too). */
export async function pidExists(pid: number): Promise<boolean> {
  if (await hasProc()) return (await readProc(pid)) !== null;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await pidExists(pid))) return true;
    await sleep(50);
  }
  return !(await pidExists(pid));
}

/** Asks the kernel for a currently free port on 127.0.0.1 (it may be taken again before use). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen({ port: 0, host: "127.0.0.1", exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error("could not determine a free port"))));
    });
  });
}

export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => server.close(() => resolve(true)));
  });
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
