/**
 * Object-detection worker thread (started by ai-tags.ts). Runs Human (@vladmandic/human, MIT)
 * on TF.js with the WebAssembly backend (Apache-2.0): the wasm backend is synchronous and
 * single-threaded, so inference here keeps the server's event loop free, and a stuck inference
 * can be ended by terminating this thread. One image at a time; every tensor is disposed.
 *
 * Offline by construction: models and .wasm files are read from node_modules on disk. Human loads
 * models through `fetch`, and Node's fetch cannot read file:// URLs, so this thread replaces
 * `fetch` with a reader for files inside the model and wasm folders that refuses everything
 * else — a misconfiguration fails loudly instead of downloading anything.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { workerData } from "node:worker_threads";
import type { Config, Human } from "@vladmandic/human";
import { serveWorker } from "./limits.ts";

export interface TaggerWorkerData {
  /** Folder holding `<modelFile>` and its weight shards. */
  modelDir: string;
  /** Human picks its decoder from the name: "centernet…" or "nanodet…". */
  modelFile: string;
  /** Folder with tfjs-backend-wasm's .wasm files (ends with a separator). */
  wasmDir: string;
  /** Path of Human's dist/human.node-wasm.js (its package exports for it are broken). */
  humanScript: string;
  minConfidence: number;
}

export type TaggerRequest =
  | { op: "init" }
  | { op: "detect"; width: number; height: number; data: Uint8Array }
  | { op: "stats" };

export interface Detection {
  label: string;
  score: number;
  /** [x, y, width, height] as fractions (0–1) of the image. */
  box?: [number, number, number, number];
}

export interface TaggerWorkerStats {
  rssBytes: number;
  tensors: number;
  modelLoadMs: number;
}

const config = workerData as TaggerWorkerData;
const allowed = [path.resolve(config.modelDir), path.resolve(config.wasmDir)];

globalThis.fetch = async (input: string | URL | Request): Promise<Response> => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (!url.startsWith("file:")) throw new Error(`network access is disabled in the tagger (${url})`);
  const file = path.resolve(fileURLToPath(url));
  if (!allowed.some((dir) => file.startsWith(dir + path.sep))) throw new Error(`not a model file: ${file}`);
  const body = await readFile(file);
  const type = file.endsWith(".json") ? "application/json" : "application/octet-stream";
  return new Response(body, { status: 200, headers: { "content-type": type } });
};

let human: Human | null = null;
let modelLoadMs = 0;

async function init(): Promise<void> {
  if (human) return;
  const started = performance.now();
  const { Human: HumanClass } = createRequire(import.meta.url)(
    config.humanScript,
  ) as typeof import("@vladmandic/human");
  const modelName = path.basename(config.modelFile, ".json");
  const settings: Partial<Config> = {
    backend: "wasm",
    wasmPath: config.wasmDir,
    wasmPlatformFetch: false,
    modelBasePath: pathToFileURL(config.modelDir + path.sep).href,
    cacheModels: false,
    // Human is built for video: its result cache and frame skipping would return stale answers.
    cacheSensitivity: 0,
    skipAllowed: false,
    warmup: "none",
    debug: false,
    face: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    filter: { enabled: false },
    object: {
      enabled: true,
      modelPath: config.modelFile,
      minConfidence: config.minConfidence,
      iouThreshold: 0.4,
      maxDetected: 50,
      skipFrames: 0,
      skipTime: 0,
    },
  };
  const instance = new HumanClass(settings);
  await instance.load();
  // Human logs load failures instead of throwing: check that weights really arrived.
  const model = instance.models.list().find((m) => m.name === modelName || m.name.startsWith(modelName));
  if (!model?.size) throw new Error(`object model ${config.modelFile} did not load from ${config.modelDir}`);
  if (instance.tf.getBackend() !== "wasm") throw new Error(`TF.js backend is ${instance.tf.getBackend()}, not wasm`);
  human = instance;
  modelLoadMs = performance.now() - started;
}

async function detect(width: number, height: number, data: Uint8Array): Promise<Detection[]> {
  if (!human) throw new Error("the model is not loaded");
  if (data.length !== width * height * 3) throw new Error("image buffer does not match its size");
  const tf = human.tf;
  const input = tf.tidy(() => tf.expandDims(tf.tensor3d(data, [height, width, 3], "int32"), 0));
  try {
    const result = await human.detect(input);
    if (result.error) throw new Error(result.error);
    return result.object.map((o) => ({
      label: o.label,
      score: o.score,
      box: o.boxRaw.map((v) => Math.round(v * 10_000) / 10_000) as [number, number, number, number],
    }));
  } finally {
    tf.dispose(input);
  }
}

serveWorker(async (req: TaggerRequest) => {
  switch (req.op) {
    case "init":
      await init();
      return { result: null };
    case "detect":
      return { result: await detect(req.width, req.height, req.data) };
    case "stats": {
      const stats: TaggerWorkerStats = {
        // Process-wide: worker threads share the process, so this is an upper bound.
        rssBytes: process.memoryUsage().rss,
        tensors: human?.tf.memory().numTensors ?? 0,
        modelLoadMs,
      };
      return { result: stats };
    }
  }
});
