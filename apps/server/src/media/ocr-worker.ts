/**
 * OCR worker thread (started by ocr.ts). tesseract.js runs its WebAssembly engine in a thread of its
 * own; this thread owns that one, so a stuck recognition is ended by terminating this thread (its
 * child goes with it) and the pipeline's usual time limit applies. Offline by construction: the
 * engine comes from tesseract.js-core and the English LSTM data from @tesseract.js-data/eng on disk
 * (`langPath`), with `cacheMethod: "none"` so nothing is fetched or written to the working directory.
 */
import { readFileSync, readlinkSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { BroadcastChannel, threadId, workerData } from "node:worker_threads";
import type { Worker as TesseractWorker } from "tesseract.js";
import { serveWorker } from "./limits.ts";

export interface OcrWorkerData {
  /** Folder holding eng.traineddata.gz. */
  langPath: string;
  /** This thread's niceness (Linux): the engine's thread inherits it. */
  nice: number;
}

export type OcrRequest =
  | { op: "init" }
  /** `cpuBudgetMs`: CPU time the engine may spend on this image (none: the caller's wall-time limit only). */
  | { op: "recognise"; image: Uint8Array; cpuBudgetMs?: number }
  | { op: "stats" };

/** Said when an image needed more of the engine's CPU time than its budget (ocr.ts tells it apart). */
export const OVER_BUDGET = "OCR ran over its CPU time budget";

export interface RawWord {
  text: string;
  confidence: number;
  bbox: { x0: number; y0: number; x1: number; y1: number };
}

const config = workerData as OcrWorkerData;
let engine: TesseractWorker | null = null;

/**
 * Lowers this thread's CPU priority before the engine's thread is made (Linux threads inherit it from
 * the thread that creates them). Linux keeps a niceness per thread, and `/proc/thread-self` names this
 * one's id; elsewhere the OCR simply runs at the process's priority.
 */
function lowerPriority(): void {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (tid > 0) os.setPriority(tid, Math.max(os.getPriority(tid), config.nice));
  } catch {
    // Not Linux, or not allowed: run as we are.
  }
}
lowerPriority();

/**
 * The engine's thread (ocr-engine-thread.cjs) says its Linux thread id on this channel: its CPU time
 * is what the budget counts, whatever else the machine's cores are busy with.
 */
const channelName = `hangar-ocr-engine-${process.pid}-${threadId}`;
process.env.HANGAR_OCR_ENGINE_CHANNEL = channelName; // the engine's thread gets a copy of this env
let engineTid: number | null = null;
const channel = new BroadcastChannel(channelName);
channel.onmessage = (event) => {
  engineTid = Number((event as { data?: unknown }).data) || null;
};
channel.unref();

/** CPU time (user + system) the engine's thread has used, in ms; null where /proc cannot tell. */
function engineCpuMs(): number | null {
  if (!engineTid) return null;
  try {
    const stat = readFileSync(`/proc/self/task/${engineTid}/stat`, "utf8");
    // utime and stime are fields 14 and 15, in clock ticks (100 a second on Linux); the name
    // (field 2) may hold spaces, so count from its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

async function init(): Promise<void> {
  if (engine) return;
  const { createWorker } = createRequire(import.meta.url)("tesseract.js") as typeof import("tesseract.js");
  engineTid = null;
  // OEM 1: the LSTM engine, the only one the `best_int` data carries.
  engine = await createWorker("eng", 1, {
    workerPath: fileURLToPath(new URL("./ocr-engine-thread.cjs", import.meta.url)),
    langPath: config.langPath,
    cacheMethod: "none",
    gzip: true,
    logger: () => {},
    errorHandler: () => {},
  });
  // Our PNGs carry no resolution: say what the long-side limit makes of a page (else a warning each call).
  await engine.setParameters({ user_defined_dpi: "300" });
}

/** How often the engine's CPU time is looked at while it reads. */
const WATCH_MS = 50;

async function recognise(image: Uint8Array, cpuBudgetMs?: number): Promise<RawWord[]> {
  await init(); // again after an image that ran over its budget ended the engine
  const current = engine!;
  const before = engineCpuMs();
  const spent = () => {
    const now = engineCpuMs();
    return before === null || now === null ? 0 : now - before;
  };
  let watch: NodeJS.Timeout | undefined;
  // The engine is synchronous WebAssembly in its own thread: ending that thread is the only stop.
  const overBudget = new Promise<never>((_, reject) => {
    if (cpuBudgetMs === undefined) return;
    watch = setInterval(() => {
      if (spent() <= cpuBudgetMs) return;
      reject(new Error(`${OVER_BUDGET} (${cpuBudgetMs} ms)`));
    }, WATCH_MS);
  });
  let r: Awaited<ReturnType<TesseractWorker["recognize"]>>;
  try {
    r = await Promise.race([current.recognize(Buffer.from(image), {}, { text: false, blocks: true }), overBudget]);
    // Also when it finished between two looks: the same image gives the same answer at any load.
    if (cpuBudgetMs !== undefined && spent() > cpuBudgetMs) throw new Error(`${OVER_BUDGET} (${cpuBudgetMs} ms)`);
  } catch (err) {
    if ((err as Error).message.startsWith(OVER_BUDGET)) {
      engine = null;
      await current.terminate();
    }
    throw err;
  } finally {
    clearInterval(watch);
  }
  const words: RawWord[] = [];
  for (const b of r.data.blocks ?? [])
    for (const p of b.paragraphs)
      for (const l of p.lines)
        for (const w of l.words) words.push({ text: w.text, confidence: w.confidence, bbox: w.bbox });
  return words;
}

serveWorker(async (req: OcrRequest) => {
  switch (req.op) {
    case "init":
      await init();
      return { result: null };
    case "recognise":
      return { result: await recognise(req.image, req.cpuBudgetMs) };
    case "stats":
      return { result: { rssBytes: process.memoryUsage().rss, engineCpuMs: engineCpuMs() } };
  }
});
