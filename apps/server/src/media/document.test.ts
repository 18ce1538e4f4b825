import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { PDFiumLibrary } from "@hyzyla/pdfium";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brokenXrefPdf, buildPdf, storedZip, pdfStream as stream, textPdf } from "../../test/fixtures.ts";
import {
  closeDocumentWorker,
  convertOffice,
  DAMAGED,
  documentWorkerStarts,
  findSoffice,
  renderPdf,
  UNREADABLE,
} from "./document.ts";
import { MediaError } from "./limits.ts";

/** A one-paragraph .docx with an image linked (not embedded) from `imageUrl`. */
function minimalDocx(text: string, imageUrl: string): Buffer {
  const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  const a = "http://schemas.openxmlformats.org/drawingml/2006/main";
  const pic = "http://schemas.openxmlformats.org/drawingml/2006/picture";
  const image = `<w:r><w:drawing><wp:inline><wp:extent cx="720000" cy="720000"/><wp:docPr id="1" name="i"/><a:graphic xmlns:a="${a}"><a:graphicData uri="${pic}"><pic:pic xmlns:pic="${pic}"><pic:nvPicPr><pic:cNvPr id="1" name="i"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:link="rId2"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="720000" cy="720000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
  return storedZip({
    "[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    "_rels/.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="word/document.xml"/></Relationships>`,
    "word/_rels/document.xml.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="${rel}/image" Target="${imageUrl}" TargetMode="External"/></Relationships>`,
    "word/document.xml": `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="${rel}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><w:body><w:p><w:r><w:t>${text}</w:t></w:r>${image}</w:p></w:body></w:document>`,
  });
}

let dir: string;
const write = async (name: string, bytes: Buffer | string) => {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
};

async function expectMediaError(promise: Promise<unknown>, reason: string | null = UNREADABLE): Promise<MediaError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MediaError);
  if (reason !== null) expect((err as MediaError).reason).toBe(reason);
  return err as MediaError;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "hangar-doc-"));
});

afterAll(async () => {
  await closeDocumentWorker();
  await rm(dir, { recursive: true, force: true });
});

describe("renderPdf", () => {
  it("counts and renders every page, plus a page-1 thumbnail", async () => {
    const file = await write("three.pdf", textPdf(3));
    const out = path.join(dir, "three");
    const started = performance.now();
    const result = await renderPdf(file, out);
    const ms = performance.now() - started;
    expect(result.pageCount).toBe(3);
    expect(result.pages.map((p) => p.file)).toEqual(["pages/1.jpg", "pages/2.jpg", "pages/3.jpg"]);
    for (const page of result.pages) {
      // US Letter is 612×792 points: long side 1600 gives 1236×1600.
      expect([page.width, page.height]).toEqual([1236, 1600]);
      const meta = await sharp(path.join(out, page.file)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1236, 1600]);
    }
    expect(result.thumbnail).toEqual({ file: "thumbnail.jpg", width: 791, height: 1024 });
    const thumb = await sharp(path.join(out, "thumbnail.jpg")).metadata();
    expect([thumb.width, thumb.height]).toEqual([791, 1024]);
    // The text and the blue box were really drawn: the page is not blank white.
    const { channels } = await sharp(path.join(out, "pages/1.jpg")).stats();
    expect(channels[0]!.min).toBeLessThan(60);
    process.stdout.write(`PDF 3 pages (incl. worker start): ${ms.toFixed(0)} ms\n`);
  });

  it("renders every page of a 117-page PDF by default", { timeout: 120_000 }, async () => {
    const out = path.join(dir, "p117");
    const r = await renderPdf(await write("p117.pdf", textPdf(117)), out, { longSide: 400 });
    expect(r.pageCount).toBe(117);
    expect(r.pages.map((p) => p.number)).toEqual(Array.from({ length: 117 }, (_, i) => i + 1));
    expect((await readdir(path.join(out, "pages"))).length).toBe(117);
  });

  it("shares the pages between two threads and still writes each page to its own number", async () => {
    // Every page a different width, so a page written under another page's number shows.
    let page = 0;
    const bodies = [
      ...textPdf(9)
        .toString("latin1")
        .matchAll(/\d+ 0 obj\n([\s\S]*?)\nendobj/g),
    ].map((m) => m[1]!.replace("/MediaBox [0 0 612 792]", () => `/MediaBox [0 0 ${300 + 40 * page++} 800]`));
    const file = await write("widths.pdf", buildPdf(bodies));
    await closeDocumentWorker();
    const out = path.join(dir, "widths");
    const r = await renderPdf(file, out, { longSide: 400, threads: 2 });
    expect(documentWorkerStarts()).toBe(2);
    const widths = Array.from({ length: 9 }, (_, i) => Math.round(((300 + 40 * i) / 800) * 400));
    expect(r.pages.map((p) => p.width)).toEqual(widths);
    for (const p of r.pages) expect((await sharp(path.join(out, p.file)).metadata()).width).toBe(p.width);
    // A one-page document does not start a second thread for nothing.
    await closeDocumentWorker();
    await renderPdf(await write("one.pdf", textPdf(1)), path.join(dir, "one"), { threads: 2 });
    expect(documentWorkerStarts()).toBe(1);
  });

  it("answers the PDF's own page labels (roman front matter, prefixed appendix)", async () => {
    const plain = textPdf(6).toString("latin1");
    // The same document with a /PageLabels number tree in its catalog: i, ii, then 1.., then A-1.
    const labelled = plain.replace(
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Catalog /Pages 2 0 R /PageLabels << /Nums [0 << /S /r >> 2 << /S /D >> 4 << /S /D /P (A-) >>] >> >>",
    );
    // Object offsets moved: rebuild through the fixture so the xref stays right.
    const bodies = [...labelled.matchAll(/\d+ 0 obj\n([\s\S]*?)\nendobj/g)].map((m) => m[1]!);
    const r = await renderPdf(await write("labels.pdf", buildPdf(bodies)), path.join(dir, "labels"), {
      longSide: 200,
    });
    expect(r.pages.map((p) => p.label ?? null)).toEqual(["i", "ii", "1", "2", "A-1", "A-2"]);
  });

  it("opens odd but valid PDFs: broken Info dictionary, incremental update, PDF 2.0 header, linearized", async () => {
    const base = textPdf(4);
    // An Info entry pointing at an object that is not a dictionary.
    const bodies = [...base.toString("latin1").matchAll(/\d+ 0 obj\n([\s\S]*?)\nendobj/g)].map((m) => m[1]!);
    const brokenInfo = buildPdf([...bodies, "(not a dictionary)"], `/Info ${bodies.length + 1} 0 R `);
    // An incremental update appending a new version of page 1's content after the first %%EOF.
    const firstXref = Number(/startxref\n(\d+)/.exec(base.toString("latin1"))![1]);
    const first = base.toString("latin1");
    const offset = Buffer.byteLength(first, "latin1");
    const update =
      `4 0 obj\n${stream("BT /F1 48 Tf 72 600 Td (Updated) Tj ET")}\nendobj\n` +
      `xref\n4 1\n${String(offset).padStart(10, "0")} 00000 n \n` +
      `trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R /Prev ${firstXref} >>\nstartxref\n${offset + Buffer.byteLength(`4 0 obj\n${stream("BT /F1 48 Tf 72 600 Td (Updated) Tj ET")}\nendobj\n`, "latin1")}\n%%EOF\n`;
    const incremental = Buffer.from(first + update, "latin1");
    const pdf20 = Buffer.from(base.toString("latin1").replace("%PDF-1.4", "%PDF-2.0"), "latin1");
    // A linearization dictionary first (its hint values need not be exact for a reader to open it).
    const linBodies = [`<< /Linearized 1 /L ${base.length} /H [0 0] /O 5 /E 0 /N 4 /T 0 >>`, ...bodies];
    const linearized = Buffer.from(
      buildPdf(linBodies.map((b) => b.replace(/(\d+) 0 R/g, (_m, n: string) => `${Number(n) + 1} 0 R`)))
        .toString("latin1")
        .replace("/Root 1 0 R", "/Root 2 0 R"),
      "latin1",
    );
    for (const [name, bytes] of Object.entries({ brokenInfo, incremental, pdf20, linearized })) {
      const r = await renderPdf(await write(`${name}.pdf`, bytes), path.join(dir, name), { longSide: 200 });
      expect(r.pageCount, name).toBe(4);
      expect(r.pages, name).toHaveLength(4);
    }
  });

  it("renders only renderPages pages, keeps landscape aspect, honours longSide", async () => {
    const file = await write("wide.pdf", textPdf(4, 842, 595));
    const result = await renderPdf(file, path.join(dir, "wide"), { renderPages: 2, longSide: 800 });
    expect(result.pageCount).toBe(4);
    expect(result.pages).toHaveLength(2);
    expect([result.pages[0]!.width, result.pages[0]!.height]).toEqual([800, 565]);
    expect(await readdir(path.join(dir, "wide", "pages"))).toHaveLength(2);
  });

  it("refuses documents over maxPages or maxBytes", async () => {
    const file = await write("five.pdf", textPdf(5));
    await expectMediaError(renderPdf(file, path.join(dir, "five"), { maxPages: 4 }), "Document has too many pages");
    await expectMediaError(renderPdf(file, path.join(dir, "five"), { maxBytes: 100 }), "Document is too large");
  });

  it("renders every page of a PDF whose cross-reference table is broken (PDFium alone gives up)", async () => {
    const damaged = brokenXrefPdf(textPdf(4));
    // The premise: PDFium by itself refuses this file.
    const pdfium = await PDFiumLibrary.init();
    try {
      await expect(pdfium.loadDocument(damaged)).rejects.toThrow(/corrupted|format/i);
    } finally {
      pdfium.destroy();
    }
    const out = path.join(dir, "damaged");
    const result = await renderPdf(await write("damaged.pdf", damaged), out);
    expect(result.pageCount).toBe(4);
    expect(result.pages.map((p) => p.file)).toEqual(["pages/1.jpg", "pages/2.jpg", "pages/3.jpg", "pages/4.jpg"]);
    // Really drawn (text and the blue box), not blank pages; the repaired copy is not a rendition.
    const { channels } = await sharp(path.join(out, "pages/4.jpg")).stats();
    expect(channels[0]!.min).toBeLessThan(60);
    expect((await readdir(out)).sort()).toEqual(["pages", "thumbnail.jpg"]);
  });

  it("rejects empty, garbage, truncated and cyclic PDFs quickly, saying what failed", async () => {
    expect((await expectMediaError(renderPdf(await write("empty.pdf", ""), dir))).message).toMatch(/empty/);
    const garbage = await write("garbage.pdf", "%PDF-1.7\nthis is not really a PDF at all\n%%EOF\n");
    // Nothing could open it: the reason (what the asset's error shows) names each step and what it said.
    const err = await expectMediaError(renderPdf(garbage, path.join(dir, "g")), null);
    expect(err.reason).toMatch(new RegExp(`^${DAMAGED}: PDFium said "[^"]*PDF[^"]*"; the repair said "[^"]+"`));
    const whole = textPdf(3);
    const cut = await renderPdf(await write("cut.pdf", whole.subarray(0, 120)), path.join(dir, "cut")).catch(
      (e: MediaError) => e,
    );
    expect((cut as MediaError).reason).toMatch(new RegExp(`^${DAMAGED}`));
    // A page tree whose Kids point back at itself: a naive walker would loop forever.
    const cyclic = buildPdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [2 0 R] /Count 1 >>"]);
    const loop = await renderPdf(await write("cyclic.pdf", cyclic), path.join(dir, "cyclic")).catch((e) => e);
    expect(loop).toBeInstanceOf(MediaError);
    // Nothing half-written is left behind.
    await expect(stat(path.join(dir, "cyclic", "pages"))).rejects.toThrow();
  });

  it("survives a self-referencing form XObject", async () => {
    const bodies = [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /XObject << /X 4 0 R >> >> /Contents 5 0 R >>",
      stream("/X Do", "/Type /XObject /Subtype /Form /BBox [0 0 200 200] /Resources << /XObject << /X 4 0 R >> >>"),
      stream("/X Do"),
    ];
    // PDFium bounds the recursion: the shipped build draws the page (blank where the form recurses)
    // rather than hanging or crashing; a hang would meet the test's timeout.
    const result = await renderPdf(await write("recursive.pdf", buildPdf(bodies)), path.join(dir, "rec"));
    expect(result.pageCount).toBe(1);
    expect(result.pages).toEqual([expect.objectContaining({ number: 1, file: "pages/1.jpg" })]);
    expect((await stat(path.join(dir, "rec", "pages", "1.jpg"))).size).toBeGreaterThan(0);
  });

  it("stops a page that takes too long and recovers with a fresh thread", async () => {
    // Half a million tiny filled rectangles: slow enough to outlast a 50 ms page budget.
    const ops = Array.from({ length: 500_000 }, (_, i) => `${i % 600} ${(i * 7) % 780} 3 3 re f`).join("\n");
    const bodies = [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
      stream(ops),
    ];
    const heavy = await write("heavy.pdf", buildPdf(bodies));
    const before = documentWorkerStarts();
    const err = await expectMediaError(renderPdf(heavy, path.join(dir, "heavy"), { pageTimeoutMs: 50 }));
    expect(err.message).toMatch(/timed out/);
    // The stuck thread was terminated; the next document gets a new one and renders normally.
    const ok = await renderPdf(await write("after.pdf", textPdf(1)), path.join(dir, "after"));
    expect(ok.pageCount).toBe(1);
    expect(documentWorkerStarts()).toBe(before + 1);
  });
});

describe("convertOffice", () => {
  const soffice = findSoffice();
  // CI installs LibreOffice and sets OFFICE_REQUIRED=1: there the two conversion cases must run.
  it.runIf(process.env.OFFICE_REQUIRED === "1")("finds LibreOffice where it is required", () => {
    expect(soffice, "OFFICE_REQUIRED=1 but no soffice on PATH").toBeTruthy();
  });

  it("answers 'unavailable' (not an error) without LibreOffice", async () => {
    const txt = await write("note.txt", "Hello from Hangar\n");
    const saved = process.env.PATH;
    process.env.PATH = path.join(dir, "no-such-bin"); // hide any installed soffice
    try {
      expect(await convertOffice(txt, path.join(dir, "office-none"))).toEqual({
        unavailable: true,
        reason: "Preview unavailable: LibreOffice is not installed",
      });
    } finally {
      process.env.PATH = saved;
    }
  });

  it("refuses types it does not convert", async () => {
    const exe = await write("tool.exe", "MZ");
    await expectMediaError(convertOffice(exe, dir), "Document type is not supported");
  });

  // Needs LibreOffice (`soffice` on PATH); machines without it skip this case (CI has it, see above).
  it.skipIf(!soffice)(
    "converts a .docx to PDF without fetching its external links",
    async () => {
      // A loopback listener stands in for "the network": the document links an image on it.
      const hits: string[] = [];
      const server = http.createServer((req, res) => {
        hits.push(req.url ?? "");
        res.end();
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      try {
        const docx = await write("linked.docx", minimalDocx("Hello from Hangar", `http://127.0.0.1:${port}/x.png`));
        const out = path.join(dir, "office");
        const started = performance.now();
        const converted = await convertOffice(docx, out);
        const ms = performance.now() - started;
        if (!("pdfPath" in converted)) throw new Error("expected a PDF");
        expect(converted.pdfPath).toBe(path.join(out, "document.pdf"));
        const rendered = await renderPdf(converted.pdfPath, out);
        expect(rendered.pageCount).toBe(1);
        // A default LibreOffice profile downloads linked images while converting; ours must not.
        expect(hits).toEqual([]);
        process.stdout.write(`LibreOffice docx → PDF: ${ms.toFixed(0)} ms\n`);
      } finally {
        server.close();
      }
    },
    120_000,
  );

  it.skipIf(!soffice)(
    "reports a broken office file as a MediaError",
    async () => {
      const broken = await write("broken.docx", "PK\u0003\u0004 not really a zip");
      await expectMediaError(convertOffice(broken, path.join(dir, "broken")), "Document could not be converted");
    },
    120_000,
  );
});
