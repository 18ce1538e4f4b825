import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DRAWING_STROKE_UNIT, type DrawingShape } from "@hangar/contract";
import { PDFiumLibrary } from "@hyzyla/pdfium";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPdf, pdfStream } from "../../../test/fixtures.ts";
import { type Client, createTestEnv, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { png, processedAsset } from "../../../test/versions.ts";
import { runTool } from "../../media/limits.ts";
import { ffmpegPath } from "../../media/video.ts";

/**
 * The comments report draws drawings (issue 31): every shape kind on an image, a document page and the
 * video frame at the comment's time, checked by rendering the report's page to pixels (PDFium) and
 * reading the colour where each shape is. Each picture is a flat colour no shape, text or marker
 * has, so its box on the page is found by that colour and every shape is looked for inside it.
 */
let env: TestEnv;
let pdfium: PDFiumLibrary;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0", OCR: "0" }, { work: false });
  pdfium = await PDFiumLibrary.init();
});
afterAll(async () => {
  pdfium.destroy();
  await env.close();
});

type Rgb = [number, number, number];
const TEAL: Rgb = [60, 170, 160];
const OLIVE: Rgb = [160, 160, 60];
const hex = (c: Rgb) => `0x${c.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
const rgbOf = (h: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as Rgb;

const SHAPES: DrawingShape[] = [
  {
    kind: "pen",
    points: [
      [5, 15],
      [15, 20],
      [25, 15],
      [35, 20],
    ],
    color: "#E03131",
    width: 8,
  },
  {
    kind: "line",
    points: [
      [50, 15],
      [90, 15],
    ],
    color: "#2F9E44",
    width: 8,
  },
  {
    kind: "arrow",
    points: [
      [10, 40],
      [40, 40],
    ],
    color: "#1C7ED6",
    width: 8,
  },
  {
    kind: "rect",
    points: [
      [90, 65],
      [50, 35],
    ],
    color: "#F76707",
    width: 8,
  },
  {
    kind: "ellipse",
    points: [
      [10, 55],
      [40, 95],
    ],
    color: "#AE3EC9",
    width: 8,
  },
];
/** Where each shape's stroke is (percent of the picture), and where the picture must show through. */
const ON: Array<[string, number, number]> = [
  ["#E03131", 20, 17.5], // the pen's second segment, halfway
  ["#2F9E44", 70, 15],
  ["#1C7ED6", 25, 40],
  ["#F76707", 50, 50], // the rectangle's left side
  ["#F76707", 70, 35], // its top
  ["#AE3EC9", 10, 75], // the ellipse's leftmost point
  ["#AE3EC9", 25, 95], // its lowest
];
const THROUGH: Array<[number, number]> = [
  [70, 50], // inside the rectangle: not filled
  [25, 75], // inside the ellipse
  [25, 44], // below the arrow's line, past its head
  [60, 25], // between the line and the rectangle
];

interface Bitmap {
  width: number;
  height: number;
  data: Uint8Array;
}
const near = (a: Rgb, b: Rgb, tolerance: number) => a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);

/** Page `index` of the PDF as RGBA pixels at 144 dpi. */
async function renderPage(pdf: Buffer, index: number): Promise<Bitmap> {
  const doc = await pdfium.loadDocument(pdf);
  try {
    const r = await doc.getPage(index).render({ scale: 2, render: "bitmap" });
    return { width: r.width, height: r.height, data: r.data };
  } finally {
    doc.destroy();
  }
}
const pixel = (b: Bitmap, x: number, y: number): Rgb => {
  const i = (Math.round(y) * b.width + Math.round(x)) * 4;
  return [b.data[i]!, b.data[i + 1]!, b.data[i + 2]!];
};

/** The box of the pixels of the picture's colour (its extent on the page), and how many there are. */
function pictureBox(b: Bitmap, [r, g, bl]: Rgb) {
  let [x0, y0, x1, y1, count] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -1, -1, 0];
  const d = b.data;
  for (let y = 0; y < b.height; y++)
    for (let x = 0; x < b.width; x++) {
      const i = (y * b.width + x) * 4;
      if (Math.abs(d[i]! - r) > 14 || Math.abs(d[i + 1]! - g) > 14 || Math.abs(d[i + 2]! - bl) > 14) continue;
      count++;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  return { x0, y0, x1, y1, count };
}

/** Every shape's colour where it was drawn on the picture of that colour; the picture inside the open shapes. */
function expectShapesOn(b: Bitmap, background: Rgb) {
  const box = pictureBox(b, background);
  // A picture at least 400 × 250 points' worth of pixels, found once on the page.
  expect(box.count).toBeGreaterThan(400 * 250);
  const at = (x: number, y: number) =>
    pixel(b, box.x0 + (x / 100) * (box.x1 - box.x0), box.y0 + (y / 100) * (box.y1 - box.y0));
  for (const [colour, x, y] of ON)
    expect(near(at(x, y), rgbOf(colour), 40), `${colour} at ${x} %, ${y} %: ${at(x, y)}`).toBe(true);
  // The arrow's head, wider than its line: a quarter of the way from its base, a stroke's width off the line.
  const stroke = ((8 * DRAWING_STROKE_UNIT) / 100) * Math.min(box.x1 - box.x0, box.y1 - box.y0);
  const head = pixel(b, box.x0 + 0.4 * (box.x1 - box.x0) - 3 * stroke, box.y0 + 0.4 * (box.y1 - box.y0) + stroke);
  expect(near(head, rgbOf("#1C7ED6"), 40), `the arrow's head: ${head}`).toBe(true);
  for (const [x, y] of THROUGH)
    expect(near(at(x, y), background, 14), `picture at ${x} %, ${y} %: ${at(x, y)}`).toBe(true);
}

async function exportOf(c: Client, ws: string, asset: string, format: "pdf" | "csv") {
  const res = await c.get(`/workspaces/${ws}/comments/export?content_type=asset&object_id=${asset}&format=${format}`);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res;
}
async function pageText(pdf: Buffer, index: number) {
  const doc = await pdfium.loadDocument(pdf);
  try {
    return doc.getPage(index).getText().replace(/\s+/g, " ");
  } finally {
    doc.destroy();
  }
}
const draw = async (c: Client, ws: string, body: Record<string, unknown>) => {
  const res = await c.post(`/workspaces/${ws}/comments`, {
    content_type: "asset",
    text: "Fix these",
    annotation_type: "DRAWING",
    shapes: SHAPES,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
};

// Each test processes its picture (a video is transcoded) and renders a report: longer than the default on a busy machine.
describe("the comments report draws every shape", { timeout: 180_000 }, () => {
  it("on an image", async () => {
    const { ws, admin } = await workspaceWith(env);
    const img = await processedAsset(
      env,
      admin.client,
      ws.id,
      "flat.png",
      await png(`rgb(${TEAL.join(",")})`, 800, 500),
    );
    await draw(admin.client, ws.id, { object_id: img });
    const pdf = (await exportOf(admin.client, ws.id, img, "pdf")).rawPayload;
    expectShapesOn(await renderPage(pdf, 0), TEAL);
    expect(await pageText(pdf, 0)).toContain("#1 · pen, line, arrow, rect, ellipse");
  });

  it("on a document's page", async () => {
    const { ws, admin } = await workspaceWith(env);
    // Page 1 white, page 2 filled with the picture's colour.
    const fill = `${TEAL.map((v) => (v / 255).toFixed(4)).join(" ")} rg 0 0 612 792 re f`;
    const bodies = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>"];
    bodies.push(
      pdfStream("1 1 1 rg 0 0 612 792 re f"),
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R >>",
    );
    bodies.push(pdfStream(fill), "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R >>");
    const doc = await processedAsset(env, admin.client, ws.id, "two pages.pdf", buildPdf(bodies));
    await draw(admin.client, ws.id, { object_id: doc, page: 2 });
    const pdf = (await exportOf(admin.client, ws.id, doc, "pdf")).rawPayload;
    expectShapesOn(await renderPage(pdf, 0), TEAL);
    expect(await pageText(pdf, 0)).toContain("Page 2");
    expect(await pageText(pdf, 0)).toContain("#1 · page 2 · pen, line, arrow, rect, ellipse");
  });

  it("on the video frame at the comment's time (not the poster); the CSV names the shapes and the range", async () => {
    const { ws, admin } = await workspaceWith(env);
    const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-draw-"));
    const file = path.join(dir, "two colours.mp4");
    // Two seconds teal, two seconds olive: the poster (at 10 %) is teal, the frame at 3 s olive.
    const source = (c: Rgb) => ["-f", "lavfi", "-i", `color=c=${hex(c)}:size=640x360:rate=25:duration=2`];
    await runTool(
      await ffmpegPath(),
      [
        ...["-v", "error", ...source(TEAL), ...source(OLIVE)],
        ...["-filter_complex", "[0:v][1:v]concat=n=2:v=1:a=0", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-y", file],
      ],
      { timeoutMs: 60_000, maxOutputBytes: 1 << 20 },
    );
    const vid = await processedAsset(env, admin.client, ws.id, "two colours.mp4", await readFile(file));
    await rm(dir, { recursive: true, force: true });
    await draw(admin.client, ws.id, { object_id: vid, timestamp: 3, duration: 0.5 });
    const pdf = (await exportOf(admin.client, ws.id, vid, "pdf")).rawPayload;
    const page = await renderPage(pdf, 0);
    expectShapesOn(page, OLIVE);
    expect(pictureBox(page, TEAL).count).toBe(0);
    expect(await pageText(pdf, 0)).toContain("#1 · 00:03.00–00:03.50 · pen, line, arrow, rect, ellipse");

    const csv = (await exportOf(admin.client, ws.id, vid, "csv")).body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\n");
    const head = csv[0]!.split(",");
    const row = csv[1]!.split(",");
    const cell = (name: string) => row[head.indexOf(name)];
    expect(cell("annotation")).toBe("DRAWING");
    expect(cell("shapes")).toBe("pen line arrow rect ellipse");
    expect([cell("timecode"), cell("timecode_out")]).toEqual(["00:03.00", "00:03.50"]);
    expect([cell("x"), cell("y")]).toEqual(["5", "15"]);
  });
});
