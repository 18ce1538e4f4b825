import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  analyseColors,
  COLOR_MATCH_DELTA_E,
  COLOR_NAMES,
  colorName,
  deltaE,
  deltaE2000,
  hexToLab,
  labToHex,
} from "./colors.ts";
import { decodeImage } from "./image.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "hangar-colors-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let counter = 0;
async function fixture(bytes: Buffer): Promise<string> {
  const file = path.join(dir, `${counter++}-original`);
  await writeFile(file, bytes);
  return file;
}
const solid = (background: string, width = 100, height = 100) =>
  sharp({ create: { width, height, channels: 3, background } });

describe("analyseColors", () => {
  it("finds one colour in a solid red image", async () => {
    const result = await analyseColors(await fixture(await solid("#ff0000").jpeg().toBuffer()));
    expect(result.palette).toHaveLength(1);
    expect(result.palette[0]!.share).toBe(1);
    expect(deltaE(hexToLab(result.palette[0]!.hex), hexToLab("#ff0000"))).toBeLessThan(3);
    expect(result.palette[0]!.name).toBe("red");
    expect(result.simplified).toEqual(["red"]);
  });

  it("splits a half-blue, half-white image into two halves", async () => {
    const png = await solid("#ffffff", 200, 100)
      .composite([
        { input: { create: { width: 100, height: 100, channels: 3, background: "#1e50c8" } }, left: 0, top: 0 },
      ])
      .png()
      .toBuffer();
    const { palette, simplified } = await analyseColors(await fixture(png));
    expect([...simplified].sort()).toEqual(["blue", "white"]);
    const share = (name: string) => palette.filter((c) => c.name === name).reduce((s, c) => s + c.share, 0);
    expect(share("blue")).toBeCloseTo(0.5, 1);
    expect(share("white")).toBeCloseTo(0.5, 1);
    expect(palette.reduce((s, c) => s + c.share, 0)).toBeCloseTo(1, 3);
  });

  it("orders by prominence and drops names under 5%", async () => {
    // 70% green, 27% yellow, 3% black.
    const png = await solid("#1a9a2a", 100, 100)
      .composite([
        { input: { create: { width: 27, height: 100, channels: 3, background: "#ffd800" } }, left: 70, top: 0 },
        { input: { create: { width: 3, height: 100, channels: 3, background: "#000000" } }, left: 97, top: 0 },
      ])
      .png()
      .toBuffer();
    const { palette, simplified } = await analyseColors(await fixture(png));
    expect(simplified).toEqual(["green", "yellow"]);
    expect(palette[0]!.name).toBe("green");
    expect(palette[0]!.share).toBeGreaterThan(0.6);
  });

  it("returns at most five colours, deterministically, for a busy image", async () => {
    const noisy = await sharp({
      create: {
        width: 300,
        height: 200,
        channels: 3,
        background: "#000000",
        noise: { type: "gaussian", mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    const file = await fixture(noisy);
    const first = await analyseColors(file);
    const second = await analyseColors(file);
    expect(second).toEqual(first);
    expect(first.palette.length).toBeGreaterThan(1);
    expect(first.palette.length).toBeLessThanOrEqual(5);
    for (const c of first.palette) {
      expect(c.hex).toMatch(/^#[0-9a-f]{6}$/);
      expect(COLOR_NAMES).toContain(c.name);
    }
    expect(first.palette.reduce((s, c) => s + c.share, 0)).toBeCloseTo(1, 3);
    for (let i = 1; i < first.palette.length; i++)
      expect(first.palette[i]!.share).toBeLessThanOrEqual(first.palette[i - 1]!.share);
  });

  it("ignores transparent pixels", async () => {
    const png = await sharp({
      create: { width: 100, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([
        { input: { create: { width: 50, height: 100, channels: 4, background: "#ff8c00" } }, left: 0, top: 0 },
      ])
      .png()
      .toBuffer();
    expect((await analyseColors(await fixture(png))).simplified).toEqual(["orange"]);
    const empty = await sharp({
      create: { width: 10, height: 10, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    expect(await analyseColors(await fixture(empty))).toEqual({ palette: [], simplified: [] });
  });

  it("accepts encoded bytes and an already decoded preview", async () => {
    const jpeg = await solid("#0000ff").jpeg().toBuffer();
    expect((await analyseColors(jpeg)).simplified).toEqual(["blue"]);
    expect((await analyseColors((await decodeImage(jpeg)).preview)).simplified).toEqual(["blue"]);
  });
});

describe("colour names", () => {
  it("uses exactly the fixed set", () => {
    expect(COLOR_NAMES).toEqual([
      "red",
      "orange",
      "yellow",
      "green",
      "blue",
      "purple",
      "pink",
      "brown",
      "black",
      "white",
      "gray",
    ]);
    expect(COLOR_MATCH_DELTA_E).toBe(20);
  });

  it.each([
    ["#ff0000", "red"],
    ["#8b0000", "red"],
    ["#dc143c", "red"],
    ["#ffa500", "orange"],
    ["#ff8c00", "orange"],
    ["#ffff00", "yellow"],
    ["#ffd700", "yellow"],
    ["#00ff00", "green"],
    ["#006400", "green"],
    ["#0000ff", "blue"],
    ["#000080", "blue"],
    ["#87ceeb", "blue"],
    ["#4682b4", "blue"],
    ["#800080", "purple"],
    ["#8a2be2", "purple"],
    ["#4b0082", "purple"],
    ["#ffc0cb", "pink"],
    ["#ff69b4", "pink"],
    ["#ff1493", "pink"],
    ["#8b4513", "brown"],
    ["#a0522d", "brown"],
    ["#d2b48c", "brown"],
    ["#000000", "black"],
    ["#1a1a1a", "black"],
    ["#333333", "gray"],
    ["#808080", "gray"],
    ["#c0c0c0", "gray"],
    ["#ffffff", "white"],
    ["#f5f5dc", "white"],
  ] as const)("%s is %s", (hex, name) => {
    expect(colorName(hex)).toBe(name);
  });
});

describe("Lab helpers", () => {
  it("converts sRGB to CIELAB (D65)", () => {
    const white = hexToLab("#ffffff");
    expect(white.l).toBeCloseTo(100, 1);
    expect(Math.abs(white.a) + Math.abs(white.b)).toBeLessThan(0.05);
    const red = hexToLab("#ff0000");
    expect(red.l).toBeCloseTo(53.24, 1);
    expect(red.a).toBeCloseTo(80.09, 1);
    expect(red.b).toBeCloseTo(67.2, 1);
    expect(hexToLab("#f00")).toEqual(red);
    expect(() => hexToLab("red")).toThrow();
  });

  it("round-trips through labToHex", () => {
    for (const hex of ["#000000", "#ffffff", "#1e50c8", "#ff8c00", "#7f7f7f"])
      expect(labToHex(hexToLab(hex))).toBe(hex);
  });

  it("measures CIE76 and CIEDE2000 differences", () => {
    expect(deltaE(hexToLab("#123456"), hexToLab("#123456"))).toBe(0);
    expect(deltaE({ l: 50, a: 0, b: 0 }, { l: 53, a: 4, b: 0 })).toBeCloseTo(5, 10);
    // Reference pairs from Sharma, Wu & Dalal (2005).
    expect(deltaE2000({ l: 50, a: 2.6772, b: -79.7751 }, { l: 50, a: 0, b: -82.7485 })).toBeCloseTo(2.0425, 4);
    expect(deltaE2000({ l: 50, a: 2.5, b: 0 }, { l: 73, a: 25, b: -18 })).toBeCloseTo(27.1492, 4);
    expect(deltaE2000({ l: 2.0776, a: 0.0795, b: -1.135 }, { l: 0.9033, a: -0.0636, b: -0.5514 })).toBeCloseTo(
      0.9082,
      4,
    );
    // A shade of red matches red under the documented threshold; blue does not.
    expect(deltaE(hexToLab("#e01010"), hexToLab("#ff0000"))).toBeLessThan(COLOR_MATCH_DELTA_E);
    expect(deltaE(hexToLab("#0000ff"), hexToLab("#ff0000"))).toBeGreaterThan(COLOR_MATCH_DELTA_E);
  });
});
