import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brokenXrefPdf, buildPdf, cameraJpeg as cameraJpegOf, pngBomb, textPdf } from "../../../test/fixtures.ts";
import { createTestEnv, type TestEnv, uploadBytes, waitForAsset, workspaceWith } from "../../../test/harness.ts";
import { findExecutable, runTool } from "../../media/limits.ts";
import { ffmpegPath } from "../../media/video.ts";

/** The whole path: real upload → pg-boss job → media steps → renditions in the store → the asset API. */
let env: TestEnv;
let ctx: Awaited<ReturnType<typeof workspaceWith>>;
beforeAll(async () => {
  env = await createTestEnv({ AI_TAGS: "0" });
  ctx = await workspaceWith(env);
});
afterAll(() => env.close());

const upload = async (name: string, data: Buffer) => {
  const id = await uploadBytes(ctx.admin.client, ctx.ws.id, name, data);
  return waitForAsset(ctx.admin.client, ctx.ws.id, id);
};

const cameraJpeg = () =>
  cameraJpegOf(sharp({ create: { width: 1200, height: 800, channels: 3, background: "#d23c28" } }));

describe("image pipeline", () => {
  it("JPEG with EXIF and GPS: dimensions, camera, exposure, position, colours, quality, renditions", async () => {
    const a = await upload("IMG_0001.JPG", await cameraJpeg());
    expect(a).toMatchObject({
      status: "COMPLETED",
      file_type: "IMAGE",
      mime_type: "image/jpeg",
      file_extension: "jpg",
      width: 1200,
      height: 800,
    });
    expect(a.exif).toMatchObject({
      make: "Canon",
      model: "Canon EOS R5",
      iso: 400,
      aperture: 2.8,
      exposure_time: 0.004,
      focal_length: 50,
    });
    expect(a.exif.latitude).toBeCloseTo(51.51, 2);
    expect(a.exif.longitude).toBeCloseTo(-0.125, 3);
    expect(a.exif.altitude).toBeCloseTo(35.5, 1);
    // 12:30 at +02:00 in the camera is 10:30 UTC.
    expect(a.exif.date_taken).toMatch(/^2024-05-01T10:30:00/);
    expect(a.colors.simplified).toEqual(["red"]);
    expect(a.colors.palette[0].share).toBeGreaterThan(0.9);
    expect(a.quality.contrast).toBeLessThan(10);
    expect(a.placeholder).toMatch(/^[A-Za-z0-9+/=]+$/);
    const thumb = await ctx.admin.client.get(a.thumbnail_url);
    const meta = await sharp(thumb.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([1024, 683]);
    const grid = await sharp((await ctx.admin.client.get(a.grid_url)).rawPayload).metadata();
    expect(Math.max(grid.width!, grid.height!)).toBe(400);
  });

  it("PNG and an animated GIF, typed from the bytes whatever the name", async () => {
    const png = await sharp({
      create: { width: 300, height: 200, channels: 4, background: { r: 0, g: 128, b: 0, alpha: 1 } },
    })
      .png()
      .toBuffer();
    const a = await upload("looks-like.pdf", png);
    expect(a).toMatchObject({
      status: "COMPLETED",
      file_type: "IMAGE",
      mime_type: "image/png",
      file_extension: "png",
      width: 300,
      height: 200,
    });
    const frames = Buffer.concat([Buffer.alloc(40 * 30 * 3, 200), Buffer.alloc(40 * 30 * 3, 50)]);
    const gif = await sharp(frames, { raw: { width: 40, height: 30, channels: 3, pageHeight: 30 } as never })
      .gif()
      .toBuffer();
    const g = await upload("anim.gif", gif);
    expect(g).toMatchObject({ status: "COMPLETED", mime_type: "image/gif", width: 40, height: 30 });
  });

  it("a HEIC photo (what iPhones take) becomes an image with renditions", async () => {
    const heic = await readFile(path.join(import.meta.dirname, "../../../test/files/quadrants.heic"));
    const a = await upload("IMG_0001.HEIC", heic);
    expect(a).toMatchObject({
      status: "COMPLETED",
      file_type: "IMAGE",
      mime_type: "image/heic",
      width: 640,
      height: 480,
    });
    expect(a.thumbnail_url).toMatch(/thumbnail\.jpg/);
    expect(a.placeholder).toBeTruthy();
  });

  it("a corrupt JPEG, a pixel bomb and zero bytes end in `error` with a reason; a bad file never stalls the queue", async () => {
    const good = await cameraJpeg();
    const corrupt = await upload("broken.jpg", good.subarray(0, Math.floor(good.length / 3)));
    expect(corrupt.status).toBe("error");
    expect(corrupt.error).toMatch(/\w/);
    const bomb = await upload("bomb.png", pngBomb(50_000, 50_000));
    expect(bomb.status).toBe("error");
    expect(bomb.error).toMatch(/pixel|large/i);
    const empty = await upload("empty.jpg", Buffer.alloc(0));
    expect(empty.status).toBe("COMPLETED");
    expect(empty.file_type).toBe("OTHER");
    const after = await upload(
      "after.png",
      await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } })
        .png()
        .toBuffer(),
    );
    expect(after.status).toBe("COMPLETED");
  });
});

describe("video, documents and AI tags", () => {
  let envAi: TestEnv;
  let w: Awaited<ReturnType<typeof workspaceWith>>;
  beforeAll(async () => {
    envAi = await createTestEnv({ AI_TAGS: "1" });
    w = await workspaceWith(envAi);
  });
  afterAll(() => envAi.close());
  const up = async (name: string, data: Buffer) =>
    waitForAsset(w.admin.client, w.ws.id, await uploadBytes(w.admin.client, w.ws.id, name, data), 120_000);

  it("a short MP4 made with ffmpeg: duration, size, web.mp4 and a poster", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-pipe-"));
    const file = path.join(dir, "clip.mp4");
    await runTool(
      await ffmpegPath(),
      [
        "-v",
        "error",
        "-f",
        "lavfi",
        "-i",
        "testsrc=size=960x540:rate=25:duration=2",
        "-f",
        "lavfi",
        "-i",
        "sine=frequency=440:duration=2",
        "-shortest",
        "-c:v",
        "libx264",
        "-c:a",
        "aac",
        "-y",
        file,
      ],
      { timeoutMs: 60_000, maxOutputBytes: 1 << 20 },
    );
    const a = await up("clip.mp4", await readFile(file));
    await rm(dir, { recursive: true, force: true });
    expect(a).toMatchObject({
      status: "COMPLETED",
      file_type: "VIDEO",
      mime_type: "video/mp4",
      width: 960,
      height: 540,
    });
    expect(a.duration).toBeGreaterThan(1.8);
    expect(a.duration).toBeLessThan(2.3);
    const web = await w.admin.client.get(a.video_url);
    expect(web.statusCode).toBe(200);
    expect(web.headers["content-type"]).toBe("video/mp4");
    const seek = await w.admin.client.request("GET", a.video_url, undefined, { headers: { range: "bytes=0-99" } });
    expect(seek.statusCode).toBe(206);
    const poster = await sharp((await w.admin.client.get(a.thumbnail_url)).rawPayload).metadata();
    expect([poster.width, poster.height]).toEqual([960, 540]);
    // For the viewer: the frame rate, and a sprite of frames for the scrub bar.
    expect(a.fps).toBe(25);
    // One frame a second (AAC priming makes the clip a little over 2 s: 2 or 3 tiles).
    expect(a.sprite).toMatchObject({ rows: 1, interval: 1, width: 160, height: 90 });
    expect([2, 3]).toContain(a.sprite.columns);
    const sprite = await sharp((await w.admin.client.get(a.sprite.url)).rawPayload).metadata();
    expect([sprite.width, sprite.height]).toEqual([160 * a.sprite.columns, 90]);
  });

  it("the viewer's sharp picture: large.jpg for a big PNG, none for a moderate JPEG (zoom uses the original)", async () => {
    const big = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#2a6" } })
      .tiff()
      .toBuffer();
    const tiff = await up("scan.tif", big);
    expect(tiff.large_url).toMatch(/\/large\.jpg/);
    const large = await sharp((await w.admin.client.get(tiff.large_url)).rawPayload).metadata();
    expect([large.format, large.width, large.height]).toEqual(["jpeg", 2560, 1707]);
    const jpeg = await up("photo.jpg", await sharp(big).jpeg().toBuffer());
    expect(jpeg.large_url).toBeNull();
    expect(jpeg.url).toBeTruthy();
  });

  it("a linearized PDF with a broken Info dictionary is a DOCUMENT with every page", async () => {
    const base = textPdf(4).toString("latin1");
    const bodies = [...base.matchAll(/\d+ 0 obj\n([\s\S]*?)\nendobj/g)].map((m) => m[1]!);
    const shifted = bodies.map((b) => b.replace(/(\d+) 0 R/g, (_m, n: string) => `${Number(n) + 1} 0 R`));
    const pdf = buildPdf(
      [`<< /Linearized 1 /L ${base.length} /H [0 0] /O 5 /E 0 /N 4 /T 0 >>`, ...shifted, "(not a dictionary)"],
      `/Info ${bodies.length + 2} 0 R `,
    )
      .toString("latin1")
      .replace("/Root 1 0 R", "/Root 2 0 R");
    const a = await up("odd.pdf", Buffer.from(pdf, "latin1"));
    expect(a).toMatchObject({ status: "COMPLETED", file_type: "DOCUMENT", page_count: 4 });
    expect(a.pages).toHaveLength(4);
  });

  it("a PDF with a broken cross-reference table is a DOCUMENT with its pages; a hopeless one says what failed", async () => {
    const a = await up("damaged.pdf", brokenXrefPdf(textPdf(4)));
    expect(a).toMatchObject({
      status: "COMPLETED",
      file_type: "DOCUMENT",
      mime_type: "application/pdf",
      page_count: 4,
    });
    expect(a.pages).toHaveLength(4);
    const b = await up("hopeless.pdf", Buffer.from("%PDF-1.7\nthis is not really a PDF at all\n%%EOF\n"));
    // Still typed from its bytes (it was OTHER), with each step's complaint in the error.
    expect(b).toMatchObject({ status: "error", file_type: "DOCUMENT", mime_type: "application/pdf" });
    expect(b.error).toMatch(/^Document is damaged and could not be repaired: PDFium said ".+"; the repair said ".+"/);
  });

  it("a three-page PDF: page count and page images", async () => {
    const a = await up("deck.pdf", textPdf(3));
    expect(a).toMatchObject({
      status: "COMPLETED",
      file_type: "DOCUMENT",
      mime_type: "application/pdf",
      page_count: 3,
    });
    expect(a.pages.map((p: { number: number }) => p.number)).toEqual([1, 2, 3]);
    const page2 = await w.admin.client.get(a.pages[1].url);
    expect(page2.headers["content-type"]).toBe("image/jpeg");
    const meta = await sharp(page2.rawPayload).metadata();
    expect(meta.height).toBeGreaterThan(meta.width!);
  });

  // Which case runs depends on the machine; CI installs LibreOffice and its OFFICE_REQUIRED guard
  // (media/document.test.ts) fails the run if it is missing there, so the converted case is always tested.
  const hasOffice = !!(findExecutable("soffice") ?? findExecutable("libreoffice"));
  it.runIf(hasOffice)("an office file with LibreOffice: COMPLETED as a DOCUMENT with its page rendered", async () => {
    const a = await up("notes.rtf", Buffer.from("{\\rtf1\\ansi Hello}"));
    expect(a.status).toBe("COMPLETED");
    expect(a.file_type).toBe("DOCUMENT");
    expect(a.page_count).toBe(1);
    expect(a.preview_unavailable ?? null).toBeNull();
    const page = await w.admin.client.get(a.pages[0].url);
    expect(page.headers["content-type"]).toBe("image/jpeg");
  });

  it.runIf(!hasOffice)(
    "an office file without LibreOffice: COMPLETED with a 'preview unavailable' state, not an error",
    async () => {
      const a = await up("notes.rtf", Buffer.from("{\\rtf1\\ansi Hello}"));
      expect(a.status).toBe("COMPLETED");
      expect(a.file_type).toBe("DOCUMENT");
      expect(a.page_count).toBeNull();
      expect(a.preview_unavailable).toMatch(/Preview unavailable/);
    },
  );

  it("AI tags from the local model, listed per workspace with counts", async () => {
    // The only real photographs on this machine ship inside the Human package: a dinner scene.
    const samples = path.join(
      path.dirname(createRequire(import.meta.url).resolve("@vladmandic/human")),
      "..",
      "assets",
      "samples.jpg",
    );
    const dinner = await sharp(samples).extract({ left: 330, top: 0, width: 210, height: 160 }).jpeg().toBuffer();
    const a = await up("dinner.jpg", dinner);
    expect(a.status).toBe("COMPLETED");
    expect(a.ai_tags).toEqual(expect.arrayContaining(["person"]));
    for (const t of a.ai_tag_details) {
      expect(t.confidence).toBeGreaterThanOrEqual(0.3);
      expect(t.type).toBe("object");
    }
    const list = (await w.admin.client.get(`/workspaces/${w.ws.id}/ai-tags`)).json();
    expect(list).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "person", count: 1, type: "object" })]),
    );
    expect((await w.admin.client.get(`/workspaces/${w.ws.id}/tags`)).json()).toEqual([]);
  });
});

describe("text after processing", () => {
  const textOf = async (assetId: string) => {
    const until = Date.now() + 120_000;
    for (;;) {
      const res = await ctx.admin.client.get(`/workspaces/${ctx.ws.id}/assets/${assetId}/recognised-text`);
      expect(res.statusCode, res.body).toBe(200);
      const t = res.json() as { status: string; text: string; words: Array<{ page: number }> };
      if (t.status !== "pending") return t;
      if (Date.now() > until) throw new Error("text still pending");
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  it("is read once COMPLETED from the stored renditions: a big picture's large one, a PDF's pages", async () => {
    // A 3000 px TIFF gets a large rendition: OCR reads that one, fetched from the store (disk or S3).
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="3000" height="1000"><rect width="100%" height="100%" fill="#fff"/><text x="100" y="560" font-family="DejaVu Sans" font-size="260" fill="#111">Hangar poster</text></svg>`;
    const a = await upload("poster.tif", await sharp(Buffer.from(svg)).tiff().toBuffer());
    expect(a.status).toBe("COMPLETED");
    expect(a.large_url).toMatch(/\/large\.jpg/);
    const text = await textOf(a.id);
    expect(text.status).toBe("done");
    expect(text.text.toLowerCase()).toContain("hangar poster");
    const pdf = await upload("pages.pdf", textPdf(2));
    const pages = await textOf(pdf.id);
    expect(pages.status).toBe("done");
    expect(pages.text).toMatch(/Page 1[\s\S]*Page 2/);
    expect(new Set(pages.words.map((w) => w.page))).toEqual(new Set([1, 2]));
    // An iPhone photo (HEVC HEIF, no large rendition): read through the HEIC decoder, not failed.
    const heic = await upload(
      "IMG_0002.HEIC",
      await readFile(path.join(import.meta.dirname, "../../../test/files/quadrants.heic")),
    );
    expect(await textOf(heic.id)).toMatchObject({ status: "done", text: "" });
  }, 300_000); // three uploads, each read by the one OCR worker once processing is quiet (CI at load 17 passed 30 s)
});
