/**
 * Faces (issue 32 "People"; docs/architecture.md §6.2): where the faces in a picture are, how good
 * each is for recognising someone, and a descriptor of each. Human's BlazeFace + FaceMesh + FaceRes
 * models, shipped in the npm package, run on TF.js' WebAssembly backend in one long-lived worker
 * thread (faces-worker.ts) with a time limit per picture and a bounded heap; nothing is downloaded.
 *
 * Quality (0–1) is the detector's score times three penalties: a small face (< 64 px on its short
 * side in the picture), a turned head (|yaw| beyond 25°, a profile), and blur (little Laplacian
 * energy in the face's crop). Faces under QUALITY_MIN are kept (drawn, named by hand) but never
 * grouped automatically.
 */
import { createRequire } from "node:module";
import path from "node:path";
import sharp from "sharp";
import type { FacesRequest, FacesWorkerData, FacesWorkerStats, RawFace } from "./faces-worker.ts";
import { createSerialWorker, MediaError } from "./limits.ts";

export interface DetectedFace {
  /** [x, y, width, height], fractions (0–1) of the picture. */
  box: [number, number, number, number];
  /** 0–1: detector score × size × pose × sharpness. */
  quality: number;
  /** L2-normalised (unit length), so cosine distance is 1 − dot product. */
  descriptor: number[] | null;
}

export interface FaceDetector {
  detect(imagePath: string): Promise<DetectedFace[]>;
  stats(): Promise<FacesWorkerStats & { starts: number }>;
  close(): Promise<void>;
}

export interface FaceDetectorOptions {
  /** Detector score under which a box is not a face (default 0.5). */
  minConfidence?: number;
  /** Per-picture limit, preprocessing excluded (default 30 s). */
  timeoutMs?: number;
  /** Worker start + model load limit (default 60 s). */
  loadTimeoutMs?: number;
  /** Stop the thread after this long unused (default 5 min). */
  idleMs?: number;
}

export const FACES_UNANALYSABLE = "Faces could not be analysed";
/** Long side of the picture handed to the models: faces of a group photo stay ≥ 30 px. */
export const FACE_INPUT_SIDE = 1024;
/** Faces of lower quality are kept but not grouped into people. */
export const QUALITY_MIN = 0.45;
/** The short side (px) under which a face is penalised as small. */
const GOOD_SIZE_PX = 64;
/** Yaw (radians) beyond which a face counts as turned away (25°), a profile at ~60°. */
const YAW_FRONTAL = 0.44;
const YAW_PROFILE = 1.05;
/** Laplacian standard deviation (of the face at 64 px) that counts as sharp. */
const SHARP_STDEV = 12;
const MAX_INPUT_PIXELS = 150_000_000;

const requireCjs = createRequire(import.meta.url);

function packagePaths() {
  const humanDist = path.dirname(requireCjs.resolve("@vladmandic/human"));
  const wasmDist = path.dirname(requireCjs.resolve("@tensorflow/tfjs-backend-wasm"));
  return {
    humanScript: path.join(humanDist, "human.node-wasm.js"),
    modelDir: path.resolve(humanDist, "..", "models"),
    wasmDir: wasmDist + path.sep,
  };
}

interface Prepared {
  width: number;
  height: number;
  data: Uint8Array;
}

async function prepare(imagePath: string): Promise<Prepared> {
  try {
    const { data, info } = await sharp(imagePath, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .timeout({ seconds: 20 })
      .rotate()
      .resize(FACE_INPUT_SIDE, FACE_INPUT_SIDE, { fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`unexpected ${info.channels}-channel output`);
    return { width: info.width, height: info.height, data: new Uint8Array(data) };
  } catch (err) {
    throw new MediaError(FACES_UNANALYSABLE, (err as Error).message, { cause: err });
  }
}

/** Laplacian standard deviation of the face's crop, scaled to 64 px (blur measure). */
async function sharpness(img: Prepared, box: RawFace["box"]): Promise<number> {
  const left = Math.max(0, Math.floor(box[0] * img.width));
  const top = Math.max(0, Math.floor(box[1] * img.height));
  const width = Math.min(img.width - left, Math.max(1, Math.round(box[2] * img.width)));
  const height = Math.min(img.height - top, Math.max(1, Math.round(box[3] * img.height)));
  if (width < 8 || height < 8) return 0;
  const { channels } = await sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength), {
    raw: { width: img.width, height: img.height, channels: 3 },
  })
    .extract({ left, top, width, height })
    .greyscale()
    .resize(64, 64, { fit: "fill" })
    .convolve({ width: 3, height: 3, kernel: [0, 1, 0, 1, -4, 1, 0, 1, 0], offset: 128 })
    .stats();
  return channels[0]?.stdev ?? 0;
}

/** The quality of a face (0–1) from its detector score, size in pixels, pose and sharpness. */
export function faceQuality(score: number, shortSidePx: number, yaw: number | null, laplacian: number): number {
  const size = Math.min(1, (shortSidePx / GOOD_SIZE_PX) ** 2);
  const turn = Math.abs(yaw ?? 0);
  const pose = turn <= YAW_FRONTAL ? 1 : Math.max(0, 1 - (turn - YAW_FRONTAL) / (YAW_PROFILE - YAW_FRONTAL));
  const sharp = Math.min(1, laplacian / SHARP_STDEV);
  return Math.round(score * size * pose * sharp * 1000) / 1000;
}

/** Scales a vector to unit length (null when it has none). */
export function normalise(v: number[] | null): number[] | null {
  if (!v?.length) return null;
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  if (!(n > 0)) return null;
  return v.map((x) => Math.round((x / n) * 1e6) / 1e6);
}

/** Starts nothing until the first `detect`; then keeps one worker thread with the models loaded. */
export function createFaceDetector(options: FaceDetectorOptions = {}): FaceDetector {
  const paths = packagePaths();
  const workerData: FacesWorkerData = {
    modelDir: paths.modelDir,
    wasmDir: paths.wasmDir,
    humanScript: paths.humanScript,
    minConfidence: options.minConfidence ?? 0.5,
  };
  const worker = createSerialWorker({
    file: new URL("./faces-worker.ts", import.meta.url),
    name: "Face detector",
    workerData,
    maxOldGenerationSizeMb: 512,
    idleMs: options.idleMs ?? 5 * 60_000,
    init: {
      message: { op: "init" } satisfies FacesRequest,
      timeoutMs: options.loadTimeoutMs ?? 60_000,
      reason: "Face recognition is unavailable",
    },
    failure: (reason, detail) => new MediaError(reason, detail),
  });

  return {
    async detect(imagePath) {
      const img = await prepare(imagePath);
      const copy = new Uint8Array(img.data);
      const raw = await worker.call<RawFace[]>(
        { op: "detect", width: img.width, height: img.height, data: copy } satisfies FacesRequest,
        { timeoutMs: options.timeoutMs ?? 30_000, reason: FACES_UNANALYSABLE, transfer: [copy.buffer as ArrayBuffer] },
      );
      const out: DetectedFace[] = [];
      for (const f of raw) {
        const shortSide = Math.min(f.box[2] * img.width, f.box[3] * img.height);
        const lap = await sharpness(img, f.box).catch(() => 0);
        out.push({
          box: f.box,
          quality: faceQuality(f.score, shortSide, f.yaw, lap),
          descriptor: normalise(f.descriptor),
        });
      }
      return out;
    },
    async stats() {
      const s = await worker.call<FacesWorkerStats>({ op: "stats" } satisfies FacesRequest, {
        timeoutMs: 10_000,
        reason: "Face recognition is unavailable",
      });
      return { ...s, starts: worker.starts };
    },
    close: () => worker.close(),
  };
}
