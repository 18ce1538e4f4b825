import { randomUUID } from "node:crypto";
import { PDFiumLibrary } from "@hyzyla/pdfium";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MISSING_GLYPH } from "../../platform/pdf-fonts.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import { commentsPdf, type ExportAsset } from "./export.ts";
import type { CommentRecord } from "./repo.ts";

/**
 * The PDF comment report (issue 35): its content starts on page 1, and it prints what people type —
 * "—", accents beyond Latin-1, "ß", Cyrillic — with an embedded font; what the font lacks (CJK,
 * emoji) prints as a visible box, never "?". Read back with PDFium's text extraction.
 */
let pdfium: PDFiumLibrary;
beforeAll(async () => {
  pdfium = await PDFiumLibrary.init();
});
afterAll(() => pdfium.destroy());

const noPictures = { read: () => Promise.reject(new Error("none")) } as unknown as BlobStore;

function comment(text: string, over: Partial<CommentRecord> = {}): CommentRecord {
  const id = randomUUID();
  const at = new Date("2026-03-01T10:00:00Z");
  return {
    id,
    workspace_id: randomUUID(),
    asset_id: randomUUID(),
    parent_id: null,
    thread_id: id,
    board_id: null,
    version_id: randomUUID(),
    version_number: 1,
    author_id: randomUUID(),
    author_name: null,
    share_link_id: null,
    text,
    severity: "none",
    annotation_type: "NONE",
    x: null,
    y: null,
    width: null,
    height: null,
    page: null,
    timestamp_s: null,
    duration_s: null,
    shapes: null,
    resolved_at: null,
    created_at: at,
    updated_at: at,
    author: { id: randomUUID(), first_name: "Zoë", last_name: "Ångström", avatar_updated_at: null },
    resolver: null,
    thread_author_id: null,
    reply_count: 0,
    mentions: [],
    ...over,
  };
}
const asset = (name: string, comments: CommentRecord[]): ExportAsset => ({
  id: randomUUID(),
  name,
  file_type: "IMAGE",
  versions: [],
  comments,
});

async function pagesText(bytes: Buffer): Promise<string[]> {
  const doc = await pdfium.loadDocument(bytes);
  try {
    return Array.from({ length: doc.getPageCount() }, (_, i) => doc.getPage(i).getText());
  } finally {
    doc.destroy();
  }
}

describe("the PDF comment report", () => {
  it("starts its content on page 1 and prints “—”, “é”, “ß”, “Ж”; CJK and emoji as a visible box, never “?”", async () => {
    const text = "Logo — too small; café, Straße, Жёлтый. 漢字 👍🏽 done";
    const bytes = await commentsPdf(
      "Comments on “Café poster” — Ж",
      [asset("Café poster.jpg", [comment(text)])],
      noPictures,
    );
    const pages = await pagesText(bytes);
    expect(pages).toHaveLength(1);
    const page1 = pages[0]!.replace(/\s+/g, " ");
    expect(page1).toContain("Café poster.jpg");
    expect(page1).toContain("Zoë Ångström");
    for (const s of ["Logo — too small", "café", "Straße", "Жёлтый", "Comments on “Café poster” — Ж"])
      expect(page1).toContain(s);
    // Two CJK characters, one emoji with its skin tone: three boxes.
    expect(page1).toContain(`${MISSING_GLYPH}${MISSING_GLYPH} ${MISSING_GLYPH} done`);
    expect(page1).not.toContain("?");
  });

  it("wraps long text without spaces (CJK) inside the page and keeps flowing assets on from page 1", async () => {
    const long = "長".repeat(300);
    const many = Array.from({ length: 3 }, (_, i) =>
      asset(`asset-${i}.jpg`, [comment(`first note on asset ${i}`), comment(long)]),
    );
    const pages = await pagesText(await commentsPdf("Board report", many, noPictures));
    expect(pages[0]).toContain("asset-0.jpg");
    expect(pages[0]).toContain("asset-1.jpg");
    expect(pages.join("")).toContain("first note on asset 2");
    expect(pages.join("").split(MISSING_GLYPH).length - 1).toBe(900);
  });
});
