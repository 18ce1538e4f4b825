/**
 * OCR worker thread (started by ocr.ts). tesseract.js runs its WebAssembly engine in a thread of its
 * own; this thread owns that one, so a stuck recognition is ended by terminating this thread (its
 * child goes with it) and the pipeline's usual time limit applies. Offline by construction: the
 * engine comes from tesseract.js-core and the English LSTM data from @tesseract.js-data/eng on disk
 * (`langPath`), with `cacheMethod: "none"` so nothing is fetched or written to the working directory.
 */
import { readlinkSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import { workerData } from "node:worker_threads";
import type { Worker as TesseractWorker } from "tesseract.js";
import { serveWorker } from "./limits.ts";

export interface OcrWorkerData {
  /** Folder holding eng.traineddata.gz. */
  langPath: string;
  /** This thread's niceness (Linux): the engine's thread inherits it. */
  nice: number;
}

export type OcrRequest = { op: "init" } | { op: "recognise"; image: Uint8Array } | { op: "stats" };

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

async function init(): Promise<void> {
  if (engine) return;
  const { createWorker } = createRequire(import.meta.url)("tesseract.js") as typeof import("tesseract.js");
  // OEM 1: the LSTM engine, the only one the `best_int` data carries.
  engine = await createWorker("eng", 1, {
    langPath: config.langPath,
    cacheMethod: "none",
    gzip: true,
    logger: () => {},
    errorHandler: () => {},
  });
  // Our PNGs carry no resolution: say what the long-side limit makes of a page (else a warning each call).
  await engine.setParameters({ user_defined_dpi: "300" });
}

async function recognise(image: Uint8Array): Promise<RawWord[]> {
  if (!engine) throw new Error("the OCR engine is not loaded");
  const r = await engine.recognize(Buffer.from(image), {}, { text: false, blocks: true });
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
      return { result: await recognise(req.image) };
    case "stats":
      return { result: { rssBytes: process.memoryUsage().rss } };
  }
});
