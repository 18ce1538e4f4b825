/**
 * Face worker thread (started by faces.ts): Human (@vladmandic/human, MIT) on TF.js' WebAssembly
 * backend, like the AI tagger's thread (ai-tags-worker.ts), with the face models only: BlazeFace
 * finds faces, FaceMesh measures their pose (so a face is turned upright before it is described),
 * FaceRes describes each face as a 1024-number vector. One picture at a time; every tensor is
 * disposed. Models are read from the package's own folder on disk; nothing is downloaded.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { workerData } from "node:worker_threads";
import type { Config, Human } from "@vladmandic/human";
import { serveWorker } from "./limits.ts";

export interface FacesWorkerData {
  /** Human's models folder (blazeface, facemesh, faceres). */
  modelDir: string;
  /** Folder with tfjs-backend-wasm's .wasm files (ends with a separator). */
  wasmDir: string;
  /** Path of Human's dist/human.node-wasm.js. */
  humanScript: string;
  /** Detections below this score are not faces. */
  minConfidence: number;
}

export type FacesRequest =
  | { op: "init" }
  | { op: "detect"; width: number; height: number; data: Uint8Array }
  | { op: "stats" };

export interface RawFace {
  /** [x, y, width, height], fractions (0–1) of the picture. */
  box: [number, number, number, number];
  /** The detector's score (0–1). */
  score: number;
  /** Head turn left/right in radians (0: facing the camera), null when the mesh failed. */
  yaw: number | null;
  /** The face's descriptor (FaceRes, 1024 numbers), null when it could not be computed. */
  descriptor: number[] | null;
}

export interface FacesWorkerStats {
  rssBytes: number;
  tensors: number;
  modelLoadMs: number;
}

const config = workerData as FacesWorkerData;
const allowed = [path.resolve(config.modelDir), path.resolve(config.wasmDir)];

// Human loads models through fetch, which cannot read file:// in Node: read the two folders only.
globalThis.fetch = async (input: string | URL | Request): Promise<Response> => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (!url.startsWith("file:")) throw new Error(`network access is disabled in the face worker (${url})`);
  const file = path.resolve(fileURLToPath(url));
  if (!allowed.some((dir) => file.startsWith(dir + path.sep))) throw new Error(`not a model file: ${file}`);
  const body = await readFile(file);
  const type = file.endsWith(".json") ? "application/json" : "application/octet-stream";
  return new Response(body, { status: 200, headers: { "content-type": type } });
};

let human: Human | null = null;
let modelLoadMs = 0;
const MODELS = ["blazeface", "facemesh", "faceres"];

async function init(): Promise<void> {
  if (human) return;
  const started = performance.now();
  const { Human: HumanClass } = createRequire(import.meta.url)(
    config.humanScript,
  ) as typeof import("@vladmandic/human");
  const off = { enabled: false };
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
    face: {
      enabled: true,
      detector: {
        enabled: true,
        modelPath: "blazeface.json",
        rotation: process.env.FX_MESH !== "0",
        maxDetected: 50,
        minConfidence: config.minConfidence,
        minSize: 0,
        iouThreshold: 0.1,
        return: false,
        skipFrames: 0,
        skipTime: 0,
      },
      mesh: { enabled: process.env.FX_MESH !== "0", modelPath: "facemesh.json", keepInvalid: true },
      description: {
        enabled: process.env.FX_DESC !== "0",
        modelPath: "faceres.json",
        minConfidence: 0,
        skipFrames: 0,
        skipTime: 0,
      },
      attention: off,
      iris: off,
      emotion: off,
      antispoof: off,
      liveness: off,
      gear: off,
    },
    body: off,
    hand: off,
    object: off,
    gesture: off,
    segmentation: off,
    filter: off,
  };
  const instance = new HumanClass(settings);
  await instance.load();
  // Human logs load failures instead of throwing: check that the weights really arrived.
  for (const name of MODELS.filter(
    (m) => (m !== "facemesh" || process.env.FX_MESH !== "0") && (m !== "faceres" || process.env.FX_DESC !== "0"),
  )) {
    const model = instance.models.list().find((m) => m.name === name);
    if (!model?.size) throw new Error(`face model ${name} did not load from ${config.modelDir}`);
  }
  if (instance.tf.getBackend() !== "wasm") throw new Error(`TF.js backend is ${instance.tf.getBackend()}, not wasm`);
  human = instance;
  modelLoadMs = performance.now() - started;
}

const round = (v: number) => Math.round(v * 10_000) / 10_000;

async function detect(width: number, height: number, data: Uint8Array): Promise<RawFace[]> {
  if (!human) throw new Error("the face models are not loaded");
  if (data.length !== width * height * 3) throw new Error("image buffer does not match its size");
  const tf = human.tf;
  const input = tf.tidy(() => tf.expandDims(tf.tensor3d(data, [height, width, 3], "int32"), 0));
  try {
    const result = await human.detect(input);
    if (result.error) throw new Error(result.error);
    return result.face.map((f) => {
      const [x, y, w, h] = f.boxRaw.map((v) => Math.min(1, Math.max(0, v))) as [number, number, number, number];
      return {
        box: [round(x), round(y), round(Math.min(w, 1 - x)), round(Math.min(h, 1 - y))],
        score: round(f.boxScore ?? f.score),
        yaw: f.rotation?.angle ? round(f.rotation.angle.yaw) : null,
        descriptor: f.embedding?.length ? Array.from(f.embedding, (v) => Math.round(v * 1e6) / 1e6) : null,
      };
    });
  } finally {
    tf.dispose(input);
  }
}

serveWorker(async (req: FacesRequest) => {
  switch (req.op) {
    case "init":
      await init();
      return { result: null };
    case "detect":
      return { result: await detect(req.width, req.height, req.data) };
    case "stats": {
      const stats: FacesWorkerStats = {
        rssBytes: process.memoryUsage().rss,
        tensors: human?.tf.memory().numTensors ?? 0,
        modelLoadMs,
      };
      return { result: stats };
    }
  }
});
