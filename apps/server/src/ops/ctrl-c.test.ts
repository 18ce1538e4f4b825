import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, httpLogin } from "../../test/processes.ts";

const ROOT = path.resolve(import.meta.dirname, "../../../..");

/**
 * What a terminal does on Ctrl-C: SIGINT to the whole foreground process group, here `npm start`'s
 * chain (npm → npm → node), every npm forwarding it once more. Hangar must take that as one Ctrl-C:
 * drain (an upload body still arriving completes), stop its embedded PostgreSQL, exit 0, and the
 * next start must find nothing to clean up.
 */
interface Started {
  proc: ChildProcess;
  out: () => string;
  /** npm's exit: 0, or SIGINT re-raised (npm ends by the signal it forwarded, as a shell expects). */
  exited: Promise<number | string | null>;
}

function startHangar(dataDir: string, port: number): Started {
  // detached: a process group of its own, as a shell gives a foreground job.
  const proc = spawn("npm", ["run", "--silent", "start", "-w", "@hangar/server"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      DEMO_ACCOUNT: "1",
      DEMO_CONTENT: "0",
      AI_TAGS: "0",
      DATABASE_URL: "",
    },
  });
  let out = "";
  proc.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  proc.stderr?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number | string | null>((resolve) =>
    // "close": every process holding the output pipes (npm's children too) has ended.
    proc.on("close", (code, signal) => resolve(code ?? signal)),
  );
  return { proc, out: () => out, exited };
}

/** `hangar <args>` through the root's npm script, as a user would type it in another terminal. */
function cli(dataDir: string, args: string[]) {
  const res = spawnSync("npm", ["run", "--silent", "hangar", "--", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, LOG_LEVEL: "warn", DATA_DIR: dataDir, DATABASE_URL: "" },
  });
  return { status: res.status, output: `${res.stdout}${res.stderr}` };
}

async function waitFor(what: string, started: Started, check: () => Promise<boolean>, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (started.proc.exitCode !== null) throw new Error(`hangar exited while waiting for ${what}:\n${started.out()}`);
    if (Date.now() > until) throw new Error(`no ${what} within ${timeoutMs} ms:\n${started.out().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** PIDs of postgres processes serving `dataDir` (any process whose command line names it). */
async function postgresFor(dataDir: string): Promise<number[]> {
  const { readdir } = await import("node:fs/promises");
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const cmd = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (cmd.includes("postgres") && cmd.includes(dataDir)) pids.push(Number(entry));
  }
  return pids;
}

const dataDir = path.join(os.tmpdir(), `hangar-ctrlc-${process.pid}-${Date.now()}`);
afterAll(async () => {
  for (const pid of await postgresFor(dataDir)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  await rm(dataDir, { recursive: true, force: true });
});

describe("Ctrl-C in a terminal (SIGINT to the process group)", () => {
  it("drains, stops PostgreSQL, exits 0, and the next start is clean", { timeout: 240_000 }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const first = startHangar(dataDir, port);
    await waitFor("a ready server", first, () =>
      fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      ),
    );
    await waitFor("the demo password", first, async () => /password: (\S+)/.test(first.out()));
    const firstPassword = /password: (\S+)/.exec(first.out())![1]!;
    expect(first.out()).toContain(`Data: ${dataDir}`);
    const pgBefore = await postgresFor(dataDir);
    expect(pgBefore.length).toBeGreaterThan(0);

    // The CLI works beside the running server: it attaches to its PostgreSQL instead of failing on the lock.
    const outbox = cli(dataDir, ["outbox"]);
    expect(outbox.status, outbox.output).toBe(0);
    expect(outbox.output).toMatch(/dev outbox is empty|Subject:/);
    const reset = cli(dataDir, ["reset-password", "demo@hangar.local"]);
    expect(reset.status, reset.output).toBe(0);
    const password = /New password for demo@hangar\.local: (\S+)/.exec(reset.output)![1]!;
    expect(password).not.toBe(firstPassword);
    expect(cli(dataDir, ["reset-password", "nobody@example.test"]).status).toBe(1);
    expect(await postgresFor(dataDir)).toHaveLength(pgBefore.length); // no second server started

    const headers = await httpLogin(base, "demo@hangar.local", password);
    const me = (await (await fetch(`${base}/api/v1/workspaces`, { headers })).json()) as Array<{ id: string }>;
    const workspaceId = me[0]!.id;
    const body = Buffer.alloc(256 * 1024, 7);
    const init = (await (
      await fetch(`${base}/api/v1/workspaces/${workspaceId}/assets/upload`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "in-flight.bin", size: body.length }),
      })
    ).json()) as { direct_url: string; asset_id: string };

    // An upload whose body is still arriving when Ctrl-C comes.
    const put = new Promise<number>((resolve, reject) => {
      const req = http.request(`${base}${init.direct_url}`, {
        method: "PUT",
        headers: { "content-length": String(body.length) },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.write(body.subarray(0, body.length / 2));
      setTimeout(() => {
        process.kill(-first.proc.pid!, "SIGINT");
        // The copy a forwarding parent (npm, tsx) sends a moment later is the same Ctrl-C.
        setTimeout(() => process.kill(first.proc.pid!, "SIGINT"), 100);
        setTimeout(() => process.kill(-first.proc.pid!, "SIGINT"), 150);
        setTimeout(() => req.end(body.subarray(body.length / 2)), 600);
      }, 200);
    });
    expect(await put).toBe(200);
    expect([0, "SIGINT"]).toContain(await first.exited);
    // Hangar itself logs "stopped" only on the way to exit(0), after PostgreSQL has stopped.
    expect(first.out()).toMatch(/embedded PostgreSQL stopped[\s\S]*"msg":"stopped"/);
    expect(first.out()).not.toMatch(/shutdown failed/);
    expect(first.out()).not.toMatch(/skipping the rest of the draining/);
    expect(await postgresFor(dataDir)).toEqual([]);

    const second = startHangar(dataDir, port);
    try {
      await waitFor("a ready server again", second, () =>
        fetch(`${base}/readyz`).then(
          (r) => r.ok,
          () => false,
        ),
      );
      expect(second.out()).not.toMatch(/stale|orphan|died/i);
      expect(second.out()).toMatch(/reset-password demo@hangar\.local/);
      const again = await httpLogin(base, "demo@hangar.local", password);
      await waitFor("the upload processed", second, async () => {
        const res = await fetch(`${base}/api/v1/workspaces/${workspaceId}/assets/${init.asset_id}`, {
          headers: again,
        });
        const asset = (await res.json()) as { status?: string };
        return asset.status === "COMPLETED";
      });
    } finally {
      process.kill(-second.proc.pid!, "SIGTERM");
      expect([0, "SIGTERM"]).toContain(await second.exited);
      expect(second.out()).toMatch(/"msg":"stopped"/);
    }
    expect(await postgresFor(dataDir)).toEqual([]);
  });
});
