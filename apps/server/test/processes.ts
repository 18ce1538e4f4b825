import { type ChildProcess, spawn } from "node:child_process";
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
  const proc = spawn(process.execPath, [BIN, command], {
    env: {
      ...process.env,
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      HOST: "127.0.0.1",
      DEMO_ACCOUNT: "0",
      AI_TAGS: "0",
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
  const waitForOutput = async (pattern: RegExp, timeoutMs = 30_000) => {
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
    async waitReady(timeoutMs = 30_000) {
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

/** Signed in over real HTTP: the cookie and CSRF headers to send with every call (any API process). */
export async function httpLogin(base: string, email: string, password: string) {
  const csrfRes = await fetch(`${base}/api/v1/users/set-csrf-token`);
  const csrfCookie = csrfRes.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const { data } = (await csrfRes.json()) as { data: { csrftoken: string } };
  const res = await fetch(`${base}/api/v1/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: csrfCookie, "x-csrftoken": data.csrftoken },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const cookie = [csrfCookie, ...res.headers.getSetCookie().map((c) => c.split(";")[0])].join("; ");
  return { cookie, "x-csrftoken": data.csrftoken, "content-type": "application/json" };
}
