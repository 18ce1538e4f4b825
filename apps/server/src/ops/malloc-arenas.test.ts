import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/**
 * bin/malloc-arenas.mjs: `hangar start|work` start themselves again with MALLOC_ARENA_MAX=2 (glibc
 * reads it only at start). The parent in between must stay invisible: signals reach the child, the
 * child's exit code or signal is the parent's, and a child whose parent is killed ends with it.
 */
const CHILD = path.resolve(import.meta.dirname, "../../test/arena-child.mjs");
const BIN = path.resolve(import.meta.dirname, "../../bin/hangar.mjs");
const glibc = Boolean(
  (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime,
);

interface Said {
  pid?: number;
  ppid?: number;
  startedWith?: string | null;
  env?: string | null;
  signal?: string;
}

const started: ChildProcess[] = [];
afterEach(() => {
  for (const p of started.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
});

function run(args: string[], env: Record<string, string | undefined> = {}, detached = false) {
  const base = { ...process.env };
  delete base.MALLOC_ARENA_MAX;
  const proc = spawn(process.execPath, [CHILD, ...args], {
    env: { ...base, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached,
  });
  started.push(proc);
  const said: Said[] = [];
  let out = "";
  proc.stdout!.on("data", (c: Buffer) => {
    out += c.toString();
    const lines = out.split("\n");
    out = lines.pop()!;
    for (const l of lines) if (l.trim()) said.push(JSON.parse(l) as Said);
  });
  let err = "";
  proc.stderr!.on("data", (c: Buffer) => {
    err += c.toString();
  });
  const exited = new Promise<number | string>((resolve) =>
    proc.on("exit", (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const waitFor = async (what: string, check: () => boolean) => {
    const until = Date.now() + 20_000;
    while (!check()) {
      if (Date.now() > until) throw new Error(`no ${what}: ${JSON.stringify(said)} ${err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { proc, said, exited, waitFor, stderr: () => err };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.runIf(glibc)("relaunch with MALLOC_ARENA_MAX (glibc)", () => {
  it("starts the child with MALLOC_ARENA_MAX=2 and gives its tools the environment as it was", async () => {
    const r = run([]);
    await r.waitFor("the child's report", () => r.said.length > 0);
    const [child] = r.said;
    expect(child!.pid).not.toBe(r.proc.pid);
    expect(child!.ppid).toBe(r.proc.pid);
    expect(child!.startedWith).toBe("MALLOC_ARENA_MAX=2");
    expect(child!.env).toBeNull(); // removed again, so ffmpeg and PostgreSQL start as before
  });

  it("keeps a value of the user's own and does not start again", async () => {
    const r = run(["exit", "0"], { MALLOC_ARENA_MAX: "4" });
    expect(await r.exited).toBe(0);
    expect(r.said).toEqual([{ pid: r.proc.pid, ppid: process.pid, startedWith: "MALLOC_ARENA_MAX=4", env: "4" }]);
  });

  it("passes SIGTERM on, and exits with the child's exit code", async () => {
    const r = run([]);
    await r.waitFor("the child's report", () => r.said.length > 0);
    r.proc.kill("SIGTERM");
    expect(await r.exited).toBe(7);
    expect(r.said.slice(1)).toEqual([{ signal: "SIGTERM" }]);
  });

  it("a Ctrl-C to the process group reaches the child as one Ctrl-C, and both exit 0", async () => {
    const r = run([], {}, true);
    await r.waitFor("the child's report", () => r.said.length > 0);
    process.kill(-r.proc.pid!, "SIGINT");
    expect(await r.exited).toBe(0);
    expect(r.said.slice(1).every((s) => s.signal === "SIGINT")).toBe(true);
    expect(r.said.length).toBeGreaterThan(1);
  });

  it("exits with the child's code, and by the signal that ended the child", async () => {
    const code = run(["exit", "3"]);
    expect(await code.exited).toBe(3);

    const r = run([]);
    await r.waitFor("the child's report", () => r.said.length > 0);
    process.kill(r.said[0]!.pid!, "SIGKILL");
    expect(await r.exited).toBe("SIGKILL");
  });

  it("a child whose parent is killed (kill -9) ends too", async () => {
    const r = run([]);
    await r.waitFor("the child's report", () => r.said.length > 0);
    const child = r.said[0]!.pid!;
    r.proc.kill("SIGKILL");
    expect(await r.exited).toBe("SIGKILL");
    await r.waitFor("the child to end", () => !alive(child));
  });

  it("hangar work: a configuration error exits 2 through the parent, with its message", async () => {
    const base = { ...process.env };
    delete base.MALLOC_ARENA_MAX;
    const proc = spawn(process.execPath, [BIN, "work"], {
      env: { ...base, PORT: "not-a-port" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    started.push(proc);
    let err = "";
    proc.stderr!.on("data", (c: Buffer) => {
      err += c.toString();
    });
    const code = await new Promise((resolve) => proc.on("exit", (c, s) => resolve(c ?? s)));
    expect(code, err).toBe(2);
    expect(err).toMatch(/PORT/);
  });
});
