import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { landscape, palette } from "./demo-content.ts";

/**
 * Issue 35: the demo pictures' captions were cut on the grid's cards, which crop a picture to their
 * shape from its middle. Every caption must lie inside the middle square of its 1600 × 1000 picture
 * (the narrowest card shape), found by drawing the picture with and without it.
 */
async function pixels(svg: string) {
  return sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
}
/** Where the picture's text is drawn: the picture against itself without its <text> elements. */
async function captionBox(svg: string) {
  const [a, b] = [await pixels(svg), await pixels(svg.replace(/<text[^>]*>[^<]*<\/text>/g, ""))];
  const { width, height } = a.info;
  let [x0, y0, x1, y1] = [width, height, -1, -1];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      if (Math.abs(a.data[i]! - b.data[i]!) + Math.abs(a.data[i + 1]! - b.data[i + 1]!) > 24) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
    }
  return { x0, y0, x1, y1, width, height };
}
const inMiddleSquare = (b: Awaited<ReturnType<typeof captionBox>>) => {
  const left = (b.width - b.height) / 2;
  expect(b.x1, "a caption was drawn").toBeGreaterThan(0);
  expect(b.x0).toBeGreaterThanOrEqual(left + 16);
  expect(b.x1).toBeLessThanOrEqual(left + b.height - 16);
  expect(b.y1).toBeLessThanOrEqual(b.height - 16);
};

describe("demo pictures keep their captions inside what a card shows", () => {
  it("a landscape's caption, the longest of the demo's", async () => {
    const args = [["#ff9a62", "#ffd9a0"], "#fff3c4", ["#3d5a80", "#2b4162", "#1b263b"]] as const;
    const draw = (caption: string) => landscape([...args[0]], args[1], [...args[2]], caption);
    inMiddleSquare(await captionBox(draw("Coastal sunrise")));
  });

  it("the brand palette's colour labels", async () => {
    const colours = ["#1c7ed6", "#f76707", "#37b24d", "#ae3ec9", "#212529"];
    inMiddleSquare(await captionBox(palette(colours)));
  });
});
