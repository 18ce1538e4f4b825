/**
 * Hangar processes for tests: the real CLI on a free port, its output kept. Imports nothing of the
 * server, so the browser tests (tests/e2e, its own tsconfig) start their servers with it too.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

const BIN = path.resolve(import.meta.dirname, "../bin/hangar.mjs");

/** A free loopback port (the OS picks; closed again before use, as every test server here does). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface HangarProcess {
  proc: ChildProcess;
  port: number;
  base: string;
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  waitReady(timeoutMs?: number): Promise<void>;
}

/** Runs the real CLI (`hangar serve|work|start`) as its own process. */
export function spawnHangar(command: string, env: Record<string, string>, port?: number): HangarProcess {
  const p = port ?? 0;
  // As a user starts it: `start` and `work` set MALLOC_ARENA_MAX themselves (bin/malloc-arenas.mjs).
  const { MALLOC_ARENA_MAX: _, ...inherited } = process.env;
  const proc = spawn(process.execPath, [BIN, command], {
    env: {
      ...inherited,
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      HOST: "127.0.0.1",
      DEMO_ACCOUNT: "0",
      AI_TAGS: "0",
      FACES: "0",
      PORT: String(p),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  proc.stderr?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number | string>((resolve) =>
    proc.on("exit", (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const base = `http://127.0.0.1:${p}`;
  const waitForOutput = async (pattern: RegExp, timeoutMs = 120_000) => {
    const until = Date.now() + timeoutMs;
    while (!pattern.test(out)) {
      if (proc.exitCode !== null) throw new Error(`hangar ${command} exited ${proc.exitCode}:\n${out.slice(-2000)}`);
      if (Date.now() > until)
        throw new Error(`hangar ${command}: no ${pattern} within ${timeoutMs} ms:\n${out.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return {
    proc,
    port: p,
    base,
    output: () => out,
    exited,
    waitForOutput,
    async waitReady(timeoutMs = 120_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        if (proc.exitCode !== null) throw new Error(`hangar ${command} exited ${proc.exitCode}:\n${out.slice(-2000)}`);
        const ok = await fetch(`${base}/readyz`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ok) return;
        if (Date.now() > until)
          throw new Error(`hangar ${command} not ready within ${timeoutMs} ms:\n${out.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 150));
      }
    },
  };
}

/**
 * Spawns `hangar <command>` on a fresh free port (`portVar`: PORT, or METRICS_PORT for `work`) and
 * waits for `ready`. Between freePort() closing its probe and the process listening, another process
 * may take the port: on EADDRINUSE it tries again with a new one.
 */
export async function spawnReady(
  command: string,
  env: Record<string, string>,
  ready: (p: HangarProcess) => Promise<void>,
  portVar: "PORT" | "METRICS_PORT" = "PORT",
): Promise<HangarProcess> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const p = spawnHangar(command, { ...env, [portVar]: String(port) }, port);
    try {
      await ready(p);
      return p;
    } catch (err) {
      if (attempt >= 5 || !/EADDRINUSE/.test(p.output())) throw err;
      await p.exited;
    }
  }
}

/**
 * The processes whose parent is `pid`, and the environment each was started with (Linux, /proc):
 * `hangar start|work` run as a child of the process a test spawned (bin/malloc-arenas.mjs).
 */
export function childrenOf(pid: number): Array<{ pid: number; environ: string[] }> {
  const out: Array<{ pid: number; environ: string[] }> = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) !== pid) continue;
      out.push({ pid: Number(entry), environ: readFileSync(`/proc/${entry}/environ`, "utf8").split("\0") });
    } catch {
      // ended meanwhile
    }
  }
  return out;
}
