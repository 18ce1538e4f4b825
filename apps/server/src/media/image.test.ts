import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp, { type Sharp } from "sharp";
import { thumbHashToApproximateAspectRatio, thumbHashToAverageRGBA } from "thumbhash";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pngBomb } from "../../test/fixtures.ts";
import { assertSafeSvg, decodeImage, ImageError, renderImage } from "./image.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "hangar-image-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let counter = 0;
async function fixture(bytes: Buffer | string, name = "original"): Promise<string> {
  const file = path.join(dir, `${counter++}-${name}`);
  await writeFile(file, bytes);
  return file;
}
async function outDir(): Promise<string> {
  const out = path.join(dir, `out-${counter++}`);
  await mkdir(out);
  return out;
}
const dims = async (file: string) => {
  const m = await sharp(file).metadata();
  return { width: m.width, height: m.height, format: m.format };
};
/** The colour of one pixel of an image file (x, y as fractions of the size). */
async function pixelAt(file: string, fx: number, fy: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  const x = Math.min(info.width - 1, Math.floor(fx * info.width));
  const y = Math.min(info.height - 1, Math.floor(fy * info.height));
  const i = (y * info.width + x) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}
/** Left half red, right half blue: shows where a rotation put things. */
function halves(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: "#0000ff" } }).composite([
    { input: { create: { width: width / 2, height, channels: 3, background: "#ff0000" } }, left: 0, top: 0 },
  ]);
}
async function expectImageError(promise: Promise<unknown>, code: string, message?: RegExp) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImageError);
  expect((error as ImageError).code).toBe(code);
  if (message) expect((error as ImageError).message).toMatch(message);
}

describe("renderImage", () => {
  it("applies EXIF orientation: a 600×400 JPEG tagged 6 is 400×600, red on top", async () => {
    const jpeg = await halves(600, 400).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect((await sharp(jpeg).metadata()).orientation).toBe(6);
    const out = await outDir();
    const result = await renderImage(await fixture(jpeg), out);
    expect(result).toMatchObject({ width: 400, height: 600, thumbnail: "thumbnail.jpg", grid: "grid.jpg" });
    // No upscaling: the thumbnail is the original size; the grid size is long side 400.
    expect(await dims(path.join(out, "thumbnail.jpg"))).toEqual({ width: 400, height: 600, format: "jpeg" });
    expect(await dims(path.join(out, "grid.jpg"))).toEqual({ width: 267, height: 400, format: "jpeg" });
    // Rotated 90° clockwise: the left (red) half of the stored pixels is now the top.
    const top = await pixelAt(path.join(out, "thumbnail.jpg"), 0.5, 0.1);
    const bottom = await pixelAt(path.join(out, "thumbnail.jpg"), 0.5, 0.9);
    expect(top[0]).toBeGreaterThan(200);
    expect(top[2]).toBeLessThan(60);
    expect(bottom[2]).toBeGreaterThan(200);
    expect(bottom[0]).toBeLessThan(60);
    // The placeholder is a ThumbHash of the oriented image.
    const hash = Buffer.from(result.placeholder, "base64");
    expect(hash.length).toBeGreaterThan(5);
    expect(thumbHashToApproximateAspectRatio(hash)).toBeCloseTo(400 / 600, 1);
  });

  it("downscales large images to long side 1024 and 400", async () => {
    const jpeg = await halves(3000, 2000).jpeg().toBuffer();
    const out = await outDir();
    const result = await renderImage(await fixture(jpeg), out);
    expect(result).toMatchObject({ width: 3000, height: 2000 });
    expect(await dims(path.join(out, "thumbnail.jpg"))).toEqual({ width: 1024, height: 683, format: "jpeg" });
    expect(await dims(path.join(out, "grid.jpg"))).toEqual({ width: 400, height: 267, format: "jpeg" });
  });

  it("writes progressive JPEGs", async () => {
    const out = await outDir();
    await renderImage(await fixture(await halves(200, 100).png().toBuffer()), out);
    expect((await sharp(path.join(out, "thumbnail.jpg")).metadata()).isProgressive).toBe(true);
  });

  it("puts a transparent PNG on white", async () => {
    const png = await sharp({
      create: { width: 300, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([
        { input: { create: { width: 100, height: 100, channels: 4, background: "#ff0000" } }, left: 100, top: 50 },
      ])
      .png()
      .toBuffer();
    const out = await outDir();
    const result = await renderImage(await fixture(png), out);
    expect(result).toMatchObject({ width: 300, height: 200 });
    const corner = await pixelAt(path.join(out, "thumbnail.jpg"), 0.02, 0.02);
    const centre = await pixelAt(path.join(out, "thumbnail.jpg"), 0.5, 0.5);
    expect(Math.min(...corner)).toBeGreaterThan(245);
    expect(centre[0]).toBeGreaterThan(230);
    expect(centre[1]).toBeLessThan(30);
    // The placeholder keeps the transparency.
    expect(thumbHashToAverageRGBA(Buffer.from(result.placeholder, "base64")).a).toBeLessThan(0.5);
  });

  it("renders the first frame of an animated GIF at the animation's size", async () => {
    const [w, h, pages] = [40, 30, 3];
    const frames = Buffer.alloc(w * h * pages * 4);
    for (let p = 0; p < pages; p++) {
      for (let i = 0; i < w * h; i++)
        frames.set([p === 0 ? 255 : 0, p === 1 ? 255 : 0, p === 2 ? 255 : 0, 255], (p * w * h + i) * 4);
    }
    const gif = await sharp(frames, { raw: { width: w, height: h * pages, channels: 4, pageHeight: h } })
      .gif({ delay: [100, 100, 100] })
      .toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(3);
    const out = await outDir();
    const file = await fixture(gif);
    expect(await renderImage(file, out)).toMatchObject({ width: 40, height: 30 });
    expect((await decodeImage(file)).pages).toBe(3);
    expect(await dims(path.join(out, "thumbnail.jpg"))).toMatchObject({ width: 40, height: 30 });
    const [r, g, b] = await pixelAt(path.join(out, "thumbnail.jpg"), 0.5, 0.5);
    expect(r).toBeGreaterThan(200);
    expect(g + b).toBeLessThan(80);
  });

  it.each([
    ["WebP", (s: Sharp) => s.webp()],
    ["TIFF", (s: Sharp) => s.tiff()],
    ["AVIF", (s: Sharp) => s.avif()],
    ["16-bit grayscale PNG", (s: Sharp) => s.grayscale().toColourspace("grey16").png()],
  ])("renders %s", async (_, encode) => {
    const out = await outDir();
    const result = await renderImage(await fixture(await encode(halves(1200, 800)).toBuffer()), out);
    expect(result).toMatchObject({ width: 1200, height: 800 });
    expect(await dims(path.join(out, "thumbnail.jpg"))).toEqual({ width: 1024, height: 683, format: "jpeg" });
    expect(await dims(path.join(out, "grid.jpg"))).toEqual({ width: 400, height: 267, format: "jpeg" });
  });

  it("rasterises a safe SVG at a bounded density and reports its intrinsic size", async () => {
    const svg = `<?xml version="1.0"?>
      <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="100">
        <defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient>
        <rect id="r" width="200" height="100"/></defs>
        <use xlink:href="#r" fill="url(#g)"/>
        <image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>
      </svg>`;
    const out = await outDir();
    const result = await renderImage(await fixture(svg, "drawing.svg"), out);
    expect(result).toMatchObject({ width: 200, height: 100 });
    // Vector art renders at up to 4× its intrinsic size (density ≤ 288 dpi), never past 1024.
    expect(await dims(path.join(out, "thumbnail.jpg"))).toEqual({ width: 800, height: 400, format: "jpeg" });
    expect(await dims(path.join(out, "grid.jpg"))).toEqual({ width: 400, height: 200, format: "jpeg" });
    const left = await pixelAt(path.join(out, "thumbnail.jpg"), 0.02, 0.5);
    expect(left[0]).toBeGreaterThan(200);

    // A huge declared size is rendered at a low density instead of tripping the pixel limit.
    const huge = `<svg xmlns="http://www.w3.org/2000/svg" width="40000" height="20000"><rect width="40000" height="20000" fill="#0a0"/></svg>`;
    const out2 = await outDir();
    expect(await renderImage(await fixture(huge), out2)).toMatchObject({ width: 40000, height: 20000 });
    expect(await dims(path.join(out2, "thumbnail.jpg"))).toMatchObject({ width: 1024, height: 512 });
  });

  it("rejects SVGs with entities or external references", async () => {
    const entity = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY lol "lol">]><svg xmlns="http://www.w3.org/2000/svg">&lol;</svg>`;
    await expectImageError(renderImage(await fixture(entity), await outDir()), "UNSAFE_SVG", /entit/i);
    const external = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="https://example.com/x.png" width="10" height="10"/></svg>`;
    await expectImageError(renderImage(await fixture(external), await outDir()), "UNSAFE_SVG", /external/);
    const cases = [
      `<svg xmlns="http://www.w3.org/2000/svg"><image href="/etc/passwd"/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg"><image href='file:///etc/hosts'/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill: url(http://evil.test/p.svg#x)"/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg"><style>@import "http://evil.test/a.css";</style></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/1999/xlink"><use x:href="other.svg#a"/></svg>`,
    ];
    for (const svg of cases) expect(() => assertSafeSvg(svg), svg).toThrow(ImageError);
    expect(() =>
      assertSafeSvg(`<svg><use href="#a"/><rect fill="url(#g)"/><image href="data:image/png;base64,AA=="/></svg>`),
    ).not.toThrow();
  });

  it("fails a truncated JPEG quickly with a clear reason", async () => {
    const jpeg = await sharp({
      create: {
        width: 800,
        height: 600,
        channels: 3,
        background: "#000000",
        noise: { type: "gaussian", mean: 128, sigma: 30 },
      },
    })
      .jpeg()
      .toBuffer();
    await expectImageError(
      renderImage(await fixture(jpeg.subarray(0, jpeg.length / 2)), await outDir()),
      "CORRUPT",
      /corrupt or truncated/,
    );
  });

  it("rejects a pixel bomb from its header, before decoding", async () => {
    // A valid PNG whose IHDR claims 50000×50000 RGB (7.5 GB decoded) with almost no data behind it.
    const bomb = pngBomb(50_000, 50_000);
    const rssBefore = process.memoryUsage().rss;
    await expectImageError(renderImage(await fixture(bomb), await outDir()), "TOO_LARGE", /100000000 pixels/);
    // Refused from the header: nothing near the 7.5 GB a decode would take.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
  });

  it("fails empty files, non-images and undecodable HEIC clearly", async () => {
    await expectImageError(renderImage(await fixture(Buffer.alloc(0)), await outDir()), "EMPTY", /empty/);
    await expectImageError(renderImage(await fixture("just some text\n"), await outDir()), "UNSUPPORTED");
    // An ISO-BMFF header with HEVC brands and nothing after it.
    const heic = Buffer.concat([
      Buffer.from([0, 0, 0, 0x18]),
      Buffer.from("ftypheic\0\0\0\0mif1heic"),
      Buffer.alloc(200),
    ]);
    await expectImageError(renderImage(await fixture(heic), await outDir()), "CORRUPT", /HEIC image is corrupt/);
  });

  it("decodes HEIC (iPhone photos) in its worker thread: size, colours where they belong, the pixel limit", {
    timeout: 60_000,
  }, async () => {
    // 640×480, four coloured quarters (red, green / yellow, blue), encoded by libheif's heif-enc (x265).
    const heic = path.join(import.meta.dirname, "../../test/files/quadrants.heic");
    const out = await outDir();
    const r = await renderImage(heic, out);
    expect(r).toMatchObject({ width: 640, height: 480 });
    expect(await dims(path.join(out, r.grid))).toMatchObject({ width: 400, height: 300 });
    const near = (px: number[], rgb: number[]) => px.every((v, i) => Math.abs(v - rgb[i]!) < 40);
    expect(near(await pixelAt(path.join(out, r.thumbnail), 0.25, 0.25), [220, 30, 30])).toBe(true);
    expect(near(await pixelAt(path.join(out, r.thumbnail), 0.75, 0.25), [30, 200, 40])).toBe(true);
    expect(near(await pixelAt(path.join(out, r.thumbnail), 0.25, 0.75), [240, 220, 30])).toBe(true);
    expect(near(await pixelAt(path.join(out, r.thumbnail), 0.75, 0.75), [30, 60, 220])).toBe(true);
    const decoded = await decodeImage(await readFile(heic), { previewSize: 100 });
    expect(decoded).toMatchObject({ width: 640, height: 480, format: "heif", pages: 1 });
    expect(decoded.preview).toMatchObject({ width: 100, height: 75, channels: 4 });
    await expectImageError(decodeImage(heic, { maxInputPixels: 100_000 }), "TOO_LARGE", /100000 pixels/);
  });

  // Its speed beside vipsthumbnail is bench/thumbnails' figure; here only the outcome.
  it("renders a 12-megapixel JPEG to its renditions", { timeout: 120_000 }, async () => {
    const src = await fixture(
      await sharp({
        create: {
          width: 4000,
          height: 3000,
          channels: 3,
          background: "#000000",
          noise: { type: "gaussian", mean: 128, sigma: 40 },
        },
      })
        .blur(0.8)
        .jpeg({ quality: 90 })
        .toBuffer(),
      "12mp.jpg",
    );
    const out = await outDir();
    const r = await renderImage(src, out);
    expect(r).toMatchObject({ width: 4000, height: 3000 });
    expect(await dims(path.join(out, "thumbnail.jpg"))).toEqual({ width: 1024, height: 768, format: "jpeg" });
  });
});
