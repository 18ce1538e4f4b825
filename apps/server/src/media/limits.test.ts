import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSerialWorker, findExecutable, MediaError, runTool, withTimeout } from "./limits.ts";

let dir: string;
const opts = { timeoutMs: 5_000, maxOutputBytes: 1 << 20, reason: "Tool failed" };

async function rejection(promise: Promise<unknown>): Promise<MediaError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MediaError);
  return err as MediaError;
}

/** Running, and not a zombie (an orphan killed in a container whose PID 1 never reaps stays Z). */
async function alive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  return !/^\d+ \(.*\) Z/.test(stat);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "hangar-limits-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("runTool", () => {
  it("returns stdout and stderr of a successful run, without a shell", async () => {
    const { stdout, stderr } = await runTool("sh", ["-c", 'echo "$1"; echo note >&2', "sh", "a; rm -rf /"], opts);
    expect(stdout).toBe("a; rm -rf /\n"); // arguments are data, never shell syntax
    expect(stderr).toBe("note\n");
  });

  it("names the tool, the exit code and the last stderr lines", async () => {
    const err = await rejection(runTool("sh", ["-c", "echo one >&2; echo two >&2; exit 3"], opts));
    expect(err.reason).toBe("Tool failed");
    expect(err.message).toBe("Tool failed: sh exited with code 3: one | two");
  });

  it("kills the whole process group on timeout", async () => {
    const pidFile = path.join(dir, "grandchild.pid");
    // Without the kill the tool would run its 30 s sleep out; the test's timeout would catch that.
    const err = await rejection(
      runTool("sh", ["-c", `sleep 30 & echo $! > ${pidFile}; wait`], { ...opts, timeoutMs: 300 }),
    );
    expect(err.message).toMatch(/sh timed out after 300 ms/);
    const grandchild = Number(await readFile(pidFile, "utf8"));
    // The group's kill reaches the grandchild (it was not waited on, so it goes when the kernel says).
    await vi.waitFor(async () => expect(await alive(grandchild)).toBe(false), { timeout: 10_000, interval: 20 });
  });

  it("stops a tool that floods stdout", async () => {
    const err = await rejection(runTool("yes", [], { ...opts, maxOutputBytes: 64 * 1024 }));
    expect(err.message).toMatch(/wrote more than 65536 bytes/);
  });

  it("reports a missing executable", async () => {
    const err = await rejection(runTool(path.join(dir, "no-such-tool"), [], opts));
    expect(err.message).toMatch(/no-such-tool|could not be started/);
  });

  // CI sets PRLIMIT_REQUIRED=1 (Debian has prlimit and awk): there the memory cap must be tested, not skipped.
  it.runIf(process.env.PRLIMIT_REQUIRED === "1")("finds prlimit and awk where they are required", () => {
    expect(findExecutable("prlimit")).toBeTruthy();
    expect(findExecutable("awk")).toBeTruthy();
  });

  it.skipIf(!findExecutable("prlimit") || !findExecutable("awk"))("caps memory with prlimit", async () => {
    const program = (bytes: number) => `BEGIN { s = sprintf("%${bytes}s", ""); print length(s) }`;
    const err = await rejection(runTool("awk", [program(300_000_000)], { ...opts, memoryBytes: 100 * 1024 ** 2 }));
    expect(err.message).toMatch(/awk exited with code \d+:.*memory/);
    const { stdout } = await runTool("awk", [program(50_000_000)], { ...opts, memoryBytes: 2 * 1024 ** 3 });
    expect(stdout.trim()).toBe("50000000");
  });
});

describe("withTimeout", () => {
  it("passes results through and turns slowness into a MediaError", async () => {
    expect(await withTimeout(Promise.resolve(7), 100, "Slow")).toBe(7);
    const err = await rejection(withTimeout(new Promise(() => {}), 50, "Slow step"));
    expect(err.reason).toBe("Slow step");
    expect(err.message).toMatch(/timed out after 50 ms/);
  });
});

describe("createSerialWorker", () => {
  it("answers in order, restarts after a crash, and stops a spinning call", async () => {
    const file = path.join(dir, "echo-worker.ts");
    const limits = pathToFileURL(path.join(import.meta.dirname, "limits.ts")).href;
    await writeFile(
      file,
      `import { serveWorker } from ${JSON.stringify(limits)};
serveWorker(async (msg: { op: string; value?: number }) => {
  if (msg.op === "crash") process.exit(3);
  if (msg.op === "spin") for (;;) {}
  if (msg.op === "fail") throw new Error("bad input");
  return { result: (msg.value ?? 0) * 2 };
});
`,
    );
    const w = createSerialWorker({ file: pathToFileURL(file), name: "echo" });
    const call = (message: object, timeoutMs = 10_000) => w.call<number>(message, { timeoutMs, reason: "Echo failed" });
    try {
      expect(await Promise.all([call({ op: "double", value: 2 }), call({ op: "double", value: 5 })])).toEqual([4, 10]);
      expect((await rejection(call({ op: "fail" }))).message).toBe("Echo failed: bad input");
      expect((await rejection(call({ op: "crash" }))).message).toMatch(/stopped \(exit code 3\)/);
      expect(await call({ op: "double", value: 4 })).toBe(8);
      expect(w.starts).toBe(2);
      expect((await rejection(call({ op: "spin" }, 300))).message).toMatch(/timed out after 300 ms/);
      expect(await call({ op: "double", value: 1 })).toBe(2);
      expect(w.starts).toBe(3);
    } finally {
      await w.close();
    }
  }, 30_000);
});
