// The tesseract.js engine's own thread (its `workerPath`, started by ocr-worker.ts through tesseract.js):
// says which Linux thread it is, so the OCR thread can budget the CPU time the engine spends (issue 27:
// a wall-time limit failed half the photos of a busy machine), then runs tesseract.js' worker script.
"use strict";
const { readlinkSync } = require("node:fs");
const { BroadcastChannel } = require("node:worker_threads");

try {
  const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
  const channel = new BroadcastChannel(process.env.HANGAR_OCR_ENGINE_CHANNEL ?? "hangar-ocr-engine");
  channel.postMessage(tid);
  channel.close();
} catch {
  // Not Linux: no CPU figures, the wall-time limit alone applies.
}
require("tesseract.js/src/worker-script/node/index.js");
