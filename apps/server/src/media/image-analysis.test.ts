import { access, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyseImage } from "./image-analysis.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "hangar-analysis-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("analyseImage", () => {
  it("renders, reads EXIF, and analyses colours and quality in one call", async () => {
    // 1600×1000, left 3/4 red and right 1/4 white, tagged orientation 6 with camera EXIF.
    const jpeg = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: "#ffffff" } })
      .composite([
        { input: { create: { width: 1200, height: 1000, channels: 3, background: "#d01010" } }, left: 0, top: 0 },
      ])
      .jpeg()
      .withExif({ IFD0: { Make: "FUJIFILM", Model: "X-T5" }, IFD2: { ISOSpeedRatings: "800", FocalLength: "23/1" } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const file = path.join(dir, "original");
    await writeFile(file, jpeg);
    const out = path.join(dir, "out");
    await mkdir(out);

    const result = await analyseImage(file, out);
    expect(result.render).toMatchObject({ width: 1000, height: 1600, thumbnail: "thumbnail.jpg", grid: "grid.jpg" });
    await access(path.join(out, "thumbnail.jpg"));
    expect(await sharp(path.join(out, "grid.jpg")).metadata()).toMatchObject({ width: 250, height: 400 });
    expect(result.exif).toMatchObject({ make: "FUJIFILM", model: "X-T5", iso: 800, focal_length: 23, gps: null });
    expect(result.colors.simplified).toEqual(["red", "white"]);
    expect(result.colors.palette[0]!.share).toBeCloseTo(0.75, 1);
    expect(result.quality.contrast).toBeGreaterThan(50);
    expect(result.quality.brightness).toBeGreaterThan(40);
  });
});
