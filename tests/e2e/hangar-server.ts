import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, type HangarProcess, spawnHangar } from "../../apps/server/test/hangar-process.ts";

/**
 * One Hangar server process for browser tests, `hangar start` exactly as `npm start` runs it: the
 * embedded PostgreSQL in a fresh data directory of its own, on a port the OS picks. The shared server
 * (global-setup.ts) and the specs that need a differently configured one (billing on, S3 storage, a
 * first run without SMTP) all start theirs here, through the server tests' spawnHangar().
 */
export interface E2EServer {
  baseUrl: string;
  port: number;
  /** The temp directory the server owns (removed by stop()); DATA_DIR is `dataDir` inside it. */
  dir: string;
  dataDir: string;
  /** Everything the process printed so far (also echoed to the runner's output as it comes). */
  output(): string;
  stop(): Promise<void>;
}

type Env = Record<string, string>;

export interface E2EServerOptions {
  /** Names the server in errors ("the billing server did not become ready…"). */
  label: string;
  /**
   * Overrides of the defaults below, given the server's base URL (it is known before the process
   * starts; on a retry with another port, asked again). May start peers that must know our origin.
   */
  env?: (baseUrl: string) => Env | Promise<Env>;
  /** The host of the base URL the browser uses (and PUBLIC_URL): cookies are per host. */
  host?: "localhost" | "127.0.0.1";
  /** Besides /readyz answering 200, what must have been printed before the server counts as ready. */
  readyOutput?: RegExp;
  readyTimeoutMs?: number;
}

export async function startE2EServer(opts: E2EServerOptions): Promise<E2EServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `hangar-e2e-${opts.label.replace(/\W+/g, "-")}-`));
  // mkdtemp makes 0700; as root the embedded cluster would be relocated outside it and outlive the run.
  chmodSync(dir, 0o755);
  const dataDir = path.join(dir, "data");
  const timeout = opts.readyTimeoutMs ?? 120_000;
  // Between freePort() closing its probe and the server listening, another process may take the
  // port: on EADDRINUSE, again with a new one (as spawnReady does for the server tests).
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const baseUrl = `http://${opts.host ?? "localhost"}:${port}`;
    const env: Env = {
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      SMTP_URL: "",
      DEMO_ACCOUNT: "0",
      // Every browser test signs up its own users, all from 127.0.0.1.
      REGISTRATIONS_PER_IP_PER_HOUR: "1000",
      // spawnHangar turns AI tags off for the server tests; here the default holds unless a spec says.
      AI_TAGS: process.env.AI_TAGS ?? "1",
      // Faces load their own models: only the specs of people turn them on (env below).
      FACES: process.env.FACES ?? "0",
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
      ...(await opts.env?.(baseUrl)),
    };
    const p = spawnHangar("start", env, port);
    // Echo as `stdio: "inherit"` did, and keep it for errors.
    p.proc.stdout?.on("data", (c: Buffer) => process.stdout.write(c));
    p.proc.stderr?.on("data", (c: Buffer) => process.stderr.write(c));
    try {
      await p.waitReady(timeout);
      if (opts.readyOutput) await p.waitForOutput(opts.readyOutput, timeout);
      return {
        baseUrl,
        port,
        dir,
        dataDir,
        output: p.output,
        stop: async () => {
          await stopProcess(p);
          rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (err) {
      await stopProcess(p);
      if (attempt < 5 && /EADDRINUSE/.test(p.output())) continue;
      rmSync(dir, { recursive: true, force: true });
      // spawnHangar's errors end with the tail of what the process printed.
      const why = err instanceof Error ? err.message : String(err);
      throw new Error(`the ${opts.label} server did not become ready: ${why}`);
    }
  }
}

/** SIGTERM (the server stops its workers and the embedded cluster), SIGKILL after 20 s. */
async function stopProcess(p: HangarProcess) {
  if (p.proc.exitCode !== null || p.proc.signalCode !== null) return;
  p.proc.kill("SIGTERM");
  const timer = setTimeout(() => p.proc.kill("SIGKILL"), 20_000);
  await p.exited;
  clearTimeout(timer);
}
