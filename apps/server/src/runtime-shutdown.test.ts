import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";

/**
 * Issue 27: at a Ctrl-C the AI tagger and OCR logged at error level ("The service is no longer
 * running"). The runtime runs in a child process under tsx, as `npm start` runs it; its esbuild
 * service is stopped as the group's SIGINT stops it, then the jobs' loaders run and the runtime closes.
 */
describe("a clean stop", () => {
  it.runIf(process.platform === "linux")(
    "logs no error when the tagger and OCR are first needed while draining",
    { timeout: 120_000 },
    async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), "hangar-stop-"));
      try {
        const child = spawn(process.execPath, [path.join(import.meta.dirname, "../test/shutdown-child.mjs")], {
          cwd: path.join(import.meta.dirname, ".."),
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            DATABASE_URL: inject("databaseUrl"),
            DATA_DIR: dataDir,
            AI_TAGS: "1",
            OCR: "1",
            // Nothing from tsx's cache on disk: each module is compiled as on a first run.
            TSX_DISABLE_CACHE: "1",
          },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        let err = "";
        child.stdout.on("data", (d) => {
          out += d;
        });
        child.stderr.on("data", (d) => {
          err += d;
        });
        const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
        const lines = out
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .map((l) => JSON.parse(l) as { level: number; msg: string });
        expect(code, err).toBe(0);
        // The premise held: esbuild was stopped before the loaders ran.
        expect(lines.find((l) => l.msg === "child: esbuild stopped")).toMatchObject({ esbuild: 1 });
        expect(lines.map((l) => l.msg)).toContain("child: closed");
        expect(lines.filter((l) => l.level >= 50)).toEqual([]);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});
