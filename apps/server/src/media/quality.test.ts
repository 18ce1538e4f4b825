import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp, { type Sharp } from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeImage } from "./image.ts";
import { analyseQuality, qualityFromRgb } from "./quality.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "hangar-quality-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let counter = 0;
async function fixture(bytes: Buffer): Promise<string> {
  const file = path.join(dir, `${counter++}-original`);
  await writeFile(file, bytes);
  return file;
}
const solid = (background: string) =>
  sharp({ create: { width: 256, height: 256, channels: 3, background } })
    .png()
    .toBuffer();

/** 512×512 black/white squares of `cell` pixels. */
function checkerboard(cell: number): Sharp {
  const size = 512;
  const data = Buffer.alloc(size * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) data[y * size + x] = (Math.floor(x / cell) + Math.floor(y / cell)) % 2 ? 255 : 0;
  }
  return sharp(data, { raw: { width: size, height: size, channels: 1 } });
}

describe("analyseQuality", () => {
  it("scores a flat gray image as mid-bright with no contrast or sharpness", async () => {
    expect(await analyseQuality(await fixture(await solid("#808080")))).toEqual({
      brightness: 50,
      contrast: 0,
      sharpness: 0,
    });
  });

  it("scores black as 0 and white as 100 brightness", async () => {
    expect((await analyseQuality(await fixture(await solid("#000000")))).brightness).toBe(0);
    expect((await analyseQuality(await fixture(await solid("#ffffff")))).brightness).toBe(100);
  });

  it("scores a checkerboard as high contrast and sharp", async () => {
    const q = await analyseQuality(await fixture(await checkerboard(8).png().toBuffer()));
    expect(q.contrast).toBe(100);
    expect(q.sharpness).toBeGreaterThanOrEqual(90);
    expect(q.brightness).toBe(50);
  });

  it("scores a blurred copy as less sharp, with contrast still ordered", async () => {
    const sharpQ = await analyseQuality(await fixture(await checkerboard(32).png().toBuffer()));
    const blurQ = await analyseQuality(await fixture(await checkerboard(32).blur(6).png().toBuffer()));
    expect(blurQ.sharpness).toBeLessThan(sharpQ.sharpness - 15);
    expect(blurQ.contrast).toBeLessThanOrEqual(sharpQ.contrast);
  });

  it("is deterministic and accepts bytes or a decoded preview", async () => {
    const noisy = await sharp({
      create: {
        width: 800,
        height: 600,
        channels: 3,
        background: "#000000",
        noise: { type: "gaussian", mean: 110, sigma: 30 },
      },
    })
      .jpeg()
      .toBuffer();
    const file = await fixture(noisy);
    const a = await analyseQuality(file);
    expect(await analyseQuality(file)).toEqual(a);
    expect(await analyseQuality(noisy)).toEqual(a);
    const fromPreview = await analyseQuality((await decodeImage(file)).preview);
    // The preview path downsizes 1024 → 512 instead of decoding at 512: near enough, not bit-identical.
    for (const key of ["brightness", "contrast", "sharpness"] as const)
      expect(Math.abs(fromPreview[key] - a[key])).toBeLessThanOrEqual(3);
    for (const value of Object.values(a)) expect(Number.isInteger(value)).toBe(true);
    expect(a.brightness).toBeGreaterThan(35);
    expect(a.brightness).toBeLessThan(50);
  });

  it("follows the documented formulas on raw pixels", () => {
    // Two columns, black and white: mean 0.5, σ 0.5 → contrast clamps at 100; too thin for a Laplacian.
    expect(qualityFromRgb(Uint8Array.from([0, 0, 0, 255, 255, 255]), 2, 1, 3)).toEqual({
      brightness: 50,
      contrast: 100,
      sharpness: 0,
    });
    // σ = 0.15 of full range → contrast 50.
    const lo = Math.round(255 * 0.35);
    const hi = Math.round(255 * 0.65);
    expect(qualityFromRgb(Uint8Array.from([lo, lo, lo, hi, hi, hi]), 2, 1, 3).contrast).toBe(50);
    // A single bright pixel in a 3×3 black field: Laplacian −1020 at the one interior pixel, variance 0.
    const dot = new Uint8Array(27);
    dot.set([255, 255, 255], 12);
    expect(qualityFromRgb(dot, 3, 3, 3).sharpness).toBe(0);
  });
});
