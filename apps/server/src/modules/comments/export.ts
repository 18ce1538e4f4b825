import { stringify } from "csv-stringify/sync";
import { PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";
import { embedReportFonts } from "../../platform/pdf-fonts.ts";
import type { BlobStore } from "../../storage/blob-store.ts";
import type { CommentRecord } from "./repo.ts";
import { type ExportVersion, pictureReader, picturesOf, timecode } from "./report-pictures.ts";
import { drawShapes } from "./report-shapes.ts";
import { authorDisplay } from "./serialize.ts";

/**
 * What an export covers: each asset with its comments (threads together, oldest first) and the
 * versions those were made on (where their pictures are).
 */
export interface ExportAsset {
  id: string;
  name: string;
  file_type: string;
  versions: ExportVersion[];
  comments: CommentRecord[];
}

// A spreadsheet opens a cell starting with these as a formula: such cells get a leading quote.
const FORMULA = /^[=+\-@\t\r]/;
const cell = (v: string | number | null) => (typeof v === "string" && FORMULA.test(v) ? `'${v}` : (v ?? ""));

/**
 * One row per comment: who, when, where on the asset (a range's out time; a drawing's shapes by kind,
 * in drawing order), and the text as written.
 */
export function commentsCsv(assets: ExportAsset[]): Buffer {
  const rows: Array<Array<string | number | null>> = [
    [
      "asset",
      "thread",
      "comment_id",
      "reply_to",
      "author",
      "created_at",
      "edited",
      "severity",
      "annotation",
      "shapes",
      "x",
      "y",
      "width",
      "height",
      "page",
      "timecode",
      "timecode_out",
      "resolved",
      "text",
    ],
  ];
  for (const a of assets)
    for (const c of a.comments)
      rows.push([
        a.name,
        c.thread_id,
        c.id,
        c.parent_id,
        authorDisplay(c),
        c.created_at.toISOString(),
        c.updated_at.getTime() !== c.created_at.getTime() ? "yes" : "no",
        c.severity,
        c.annotation_type,
        c.shapes?.map((s) => s.kind).join(" ") ?? "",
        c.x,
        c.y,
        c.width,
        c.height,
        c.page,
        timecode(c.timestamp_s),
        c.timestamp_s !== null && c.duration_s !== null ? timecode(c.timestamp_s + c.duration_s) : "",
        c.parent_id === null ? (c.resolved_at ? "yes" : "no") : "",
        c.text,
      ]);
  // A byte-order mark so spreadsheet apps read UTF-8.
  return Buffer.concat([Buffer.from("\uFEFF"), Buffer.from(stringify(rows.map((r) => r.map(cell))))]);
}

/** Lines of `text` (already printable) that fit `width`; a word longer than a line is cut. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const out: string[] = [];
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width;
  for (const para of text.split("\n")) {
    let line = "";
    for (let word of para.split(/\s+/)) {
      const next = line ? `${line} ${word}` : word;
      if (fits(next)) {
        line = next;
        continue;
      }
      if (line) out.push(line);
      // CJK text has no spaces: cut a word wider than the line where it stops fitting.
      while (!fits(word) && [...word].length > 1) {
        const chars = [...word];
        let n = chars.length - 1;
        while (n > 1 && !fits(chars.slice(0, n).join(""))) n--;
        out.push(chars.slice(0, n).join(""));
        word = chars.slice(n).join("");
      }
      line = word;
    }
    out.push(line);
  }
  return out;
}

const A4 = { w: 595, h: 842 };
const MARGIN = 40;
const SEVERITY_COLOUR: Record<string, [number, number, number]> = {
  high: [0.88, 0.19, 0.19],
  medium: [0.96, 0.55, 0.1],
  low: [0.98, 0.78, 0.1],
  positive: [0.16, 0.62, 0.33],
  none: [0.2, 0.45, 0.95],
};

/**
 * A printable review report: per asset its pictures — the image, each document page and each video
 * frame with annotations, on the version they were made on — with every annotation drawn and numbered
 * (points as circles, areas as rectangles, drawings' shapes as drawn, the number at the drawing's
 * start), then the comments with their numbers, authors, times and replies.
 */
export async function commentsPdf(title: string, assets: ExportAsset[], store: BlobStore): Promise<Buffer> {
  const pictures = pictureReader(store);
  try {
    return await writePdf(title, assets, pictures);
  } finally {
    await pictures.close();
  }
}

async function writePdf(
  title: string,
  assets: ExportAsset[],
  pictures: ReturnType<typeof pictureReader>,
): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setProducer("Hangar");
  const { font, bold, printable } = await embedReportFonts(pdf);
  let page: PDFPage = pdf.addPage([A4.w, A4.h]);
  let y = A4.h - MARGIN;
  const newPage = () => {
    page = pdf.addPage([A4.w, A4.h]);
    y = A4.h - MARGIN;
  };
  const line = (
    text: string,
    opts: { size?: number; f?: PDFFont; indent?: number; colour?: [number, number, number] } = {},
  ) => {
    const size = opts.size ?? 10;
    for (const l of wrap(printable(text), opts.f ?? font, size, A4.w - 2 * MARGIN - (opts.indent ?? 0))) {
      if (y - size < MARGIN) newPage();
      y -= size + 4;
      page.drawText(l, {
        x: MARGIN + (opts.indent ?? 0),
        y,
        size,
        font: opts.f ?? font,
        color: rgb(...(opts.colour ?? [0.1, 0.1, 0.1])),
      });
    }
  };

  line(title, { size: 18, f: bold });
  line(`Exported ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`, { size: 9, colour: [0.4, 0.4, 0.4] });
  // The first asset follows the title on page 1; each next one starts where the last ended, on a new
  // page only when too little of this one is left for its heading and a first block.
  for (const a of assets) {
    if (a.comments.length === 0) continue;
    if (y - 160 < MARGIN) newPage();
    else y -= 18;
    line(a.name, { size: 14, f: bold });
    // Number the annotations; each is drawn on its picture (version, then page or frame).
    const numbered = a.comments.filter((c) => c.annotation_type !== "NONE");
    const number = new Map(numbered.map((c, i) => [c.id, i + 1]));
    for (const picture of picturesOf(numbered, a.versions)) {
      const bytes = await pictures.read(picture);
      if (!bytes) continue;
      const img = await pdf.embedJpg(bytes).catch(() => null);
      if (!img) continue;
      const maxW = A4.w - 2 * MARGIN;
      const maxH = 360;
      const scale = Math.min(maxW / img.width, maxH / img.height, 1.5);
      const w = img.width * scale;
      const h = img.height * scale;
      if (y - h - 20 < MARGIN) newPage();
      if (picture.label) line(picture.label, { size: 10, f: bold });
      const top = y - 6;
      page.drawImage(img, { x: MARGIN, y: top - h, width: w, height: h });
      // Shapes first, every number over them.
      for (const c of picture.comments) if (c.shapes) drawShapes(page, c.shapes, { x: MARGIN, y: top - h, w, h });
      for (const c of picture.comments) {
        const colour = rgb(...(SEVERITY_COLOUR[c.severity] ?? SEVERITY_COLOUR.none!));
        const cx = MARGIN + ((c.x ?? 0) / 100) * w;
        const cy = top - ((c.y ?? 0) / 100) * h;
        if (c.annotation_type === "AREA")
          page.drawRectangle({
            x: cx,
            y: cy - ((c.height ?? 0) / 100) * h,
            width: ((c.width ?? 0) / 100) * w,
            height: ((c.height ?? 0) / 100) * h,
            borderColor: colour,
            borderWidth: 2,
          });
        page.drawCircle({ x: cx, y: cy, size: 8, color: colour, borderColor: rgb(1, 1, 1), borderWidth: 1 });
        const n = String(number.get(c.id));
        page.drawText(n, {
          x: cx - bold.widthOfTextAtSize(n, 8) / 2,
          y: cy - 3,
          size: 8,
          font: bold,
          color: rgb(1, 1, 1),
        });
      }
      y = top - h - 8;
    }
    for (const c of a.comments) {
      const n = number.get(c.id);
      const where = [
        n ? `#${n}` : null,
        c.page ? `page ${c.page}` : null,
        c.timestamp_s !== null
          ? c.duration_s !== null
            ? `${timecode(c.timestamp_s)}–${timecode(c.timestamp_s + c.duration_s)}`
            : timecode(c.timestamp_s)
          : null,
        c.shapes ? c.shapes.map((s) => s.kind).join(", ") : null,
        c.severity !== "none" ? c.severity : null,
        c.parent_id === null && c.resolved_at ? "resolved" : null,
      ].filter(Boolean);
      const head = `${authorDisplay(c)} · ${c.created_at.toISOString().slice(0, 16).replace("T", " ")}${where.length ? ` · ${where.join(" · ")}` : ""}`;
      y -= 4;
      line(head, { size: 9, f: bold, indent: c.parent_id ? 18 : 0 });
      line(c.text, { size: 10, indent: c.parent_id ? 18 : 0 });
    }
  }
  return Buffer.from(await pdf.save());
}
