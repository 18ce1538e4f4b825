import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AiTag, COCO_LABELS, createTagger, summarise, type Tagger, UNANALYSABLE } from "./ai-tags.ts";
import { MediaError } from "./limits.ts";

/**
 * Fixtures: real photos are needed for a real detector, and none may be downloaded. Human ships
 * a contact sheet of photos (assets/samples.jpg, 1280×1158) in its npm package; the test crops
 * two scenes out of it: a man at a dinner table (top strip) and part of a group photo (bottom).
 */
const samples = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@vladmandic/human")),
  "..",
  "assets",
  "samples.jpg",
);

let dir: string;
let dinner: string;
let crowd: string;
let tagger: Tagger;
let rssBefore = 0;

async function expectMediaError(promise: Promise<unknown>, reason: string): Promise<MediaError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MediaError);
  expect((err as MediaError).reason).toBe(reason);
  return err as MediaError;
}

function expectWellFormed(tags: AiTag[], minConfidence: number) {
  const labels = tags.map((t) => t.label);
  expect(new Set(labels).size).toBe(labels.length); // de-duplicated
  for (const t of tags) {
    expect(COCO_LABELS).toContain(t.label);
    expect(t.type).toBe("object");
    expect(t.confidence).toBeGreaterThanOrEqual(minConfidence);
    expect(t.confidence).toBeLessThanOrEqual(1);
  }
  const scores = tags.map((t) => t.confidence);
  expect(scores).toEqual([...scores].sort((a, b) => b - a)); // best first
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "hangar-tags-"));
  dinner = path.join(dir, "dinner.jpg");
  crowd = path.join(dir, "crowd.jpg");
  await sharp(samples).extract({ left: 330, top: 0, width: 210, height: 160 }).jpeg().toFile(dinner);
  await sharp(samples).extract({ left: 0, top: 200, width: 640, height: 958 }).jpeg().toFile(crowd);
  rssBefore = process.memoryUsage().rss;
  tagger = createTagger();
});

afterAll(async () => {
  await tagger?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("summarise", () => {
  it("keeps the best score per label, drops low ones, sorts best first", () => {
    const tags = summarise(
      [
        { label: "person", score: 0.42 },
        { label: "cup", score: 0.59 },
        { label: "person", score: 0.7, box: [0.1, 0.2, 0.3, 0.4] },
        { label: "tie", score: 0.21 },
      ],
      0.3,
    );
    expect(tags).toEqual([
      { label: "person", confidence: 0.7, type: "object", box: [0.1, 0.2, 0.3, 0.4] },
      { label: "cup", confidence: 0.59, type: "object", box: null },
    ]);
  });
});

describe("createTagger", () => {
  it("loads the shipped model offline and tags real photos", async () => {
    const started = performance.now();
    const first = await tagger.tag(dinner);
    const firstMs = performance.now() - started;
    expectWellFormed(first, 0.3);
    expect(first.map((t) => t.label)).toContain("person");

    const crowdTags = await tagger.tag(crowd);
    expectWellFormed(crowdTags, 0.3);
    expect(crowdTags[0]?.label).toBe("person");

    // Per-image timing once warm (includes sharp preprocessing to ≤ 640 px).
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await tagger.tag(i % 2 ? crowd : dinner);
      runs.push(performance.now() - t);
    }
    runs.sort((a, b) => a - b);
    const stats = await tagger.stats();
    expect(stats.starts).toBe(1);
    process.stdout.write(
      `AI tags: worker start + model load + first image ${firstMs.toFixed(0)} ms (model load ${stats.modelLoadMs.toFixed(0)} ms); ` +
        `median ${runs[2]!.toFixed(0)} ms/image over 5; process RSS ${(stats.rssBytes / 1e6).toFixed(0)} MB ` +
        `(+${((stats.rssBytes - rssBefore) / 1e6).toFixed(0)} MB with the worker); ` +
        `tensors ${stats.tensors}; dinner: ${first.map((t) => `${t.label} ${t.confidence}`).join(", ")}\n`,
    );
    // Tensors are disposed: the count does not grow with more images.
    await tagger.tag(dinner);
    expect((await tagger.stats()).tensors).toBe(stats.tensors);
  });

  it("rejects files that are not images with a clear reason", async () => {
    const text = path.join(dir, "notes.jpg");
    await writeFile(text, "this is not a picture");
    const err = await expectMediaError(tagger.tag(text), UNANALYSABLE);
    expect(err.message).toMatch(/unsupported image format|Input file/i);
    await expectMediaError(tagger.tag(path.join(dir, "missing.jpg")), UNANALYSABLE);
    const empty = path.join(dir, "empty.png");
    await writeFile(empty, "");
    await expectMediaError(tagger.tag(empty), UNANALYSABLE);
    // The worker is unaffected by bad input.
    expect((await tagger.tag(dinner)).length).toBeGreaterThan(0);
  });

  it("fails clearly, without downloading, when the model folder is wrong", async () => {
    const broken = createTagger({ modelDir: path.join(dir, "no-models"), loadTimeoutMs: 30_000 });
    try {
      const err = await expectMediaError(broken.tag(dinner), "AI tagging is unavailable");
      expect(err.message).toMatch(/did not load/);
    } finally {
      await broken.close();
    }
  });

  it("stops an inference that exceeds the per-image limit", async () => {
    const hasty = createTagger({ timeoutMs: 1 });
    try {
      const err = await expectMediaError(hasty.tag(crowd), UNANALYSABLE);
      expect(err.message).toMatch(/timed out/);
    } finally {
      await hasty.close();
    }
  });
});
