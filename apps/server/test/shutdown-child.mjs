// Child process of runtime-shutdown.test.ts: Hangar's runtime under tsx, as `npm start` runs it, through
// a Ctrl-C. A terminal's Ctrl-C signals the whole process group, so tsx's esbuild service dies at once
// while Hangar drains its jobs; those jobs may then need the AI tagger and OCR for the first time.
import { readdirSync, readFileSync } from "node:fs";
import { register } from "tsx/esm/api";

register();
const { loadConfig } = await import("../src/config.ts");
const { createLogger } = await import("../src/platform/logging.ts");
const { createRuntime } = await import("../src/runtime.ts");

const config = loadConfig(process.env);
const rt = createRuntime(config, process.env.DATABASE_URL, createLogger("info"));

// The group's SIGINT, as it reaches esbuild (a child of this process; found through /proc, no pgrep).
const children = readdirSync("/proc")
  .filter((p) => /^\d+$/.test(p))
  .flatMap((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const after = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      return Number(after[1]) === process.pid && name.startsWith("esbuild") ? [Number(pid)] : [];
    } catch {
      return [];
    }
  });
for (const pid of children) process.kill(pid, "SIGINT");
process.stdout.write(`${JSON.stringify({ level: 30, msg: "child: esbuild stopped", esbuild: children.length })}\n`);

// What a draining job does: the pipeline asks for the tagger, the read-text job for OCR.
await rt.vision.tagger();
await rt.vision.ocr();
await rt.close(1000);
process.stdout.write(`${JSON.stringify({ level: 30, msg: "child: closed" })}\n`);
