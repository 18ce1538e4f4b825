import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import fontkit from "@pdf-lib/fontkit";
import type { PDFDocument, PDFFont } from "pdf-lib";

/**
 * The comment report's fonts (issue 35): DejaVu Sans, a TrueType font shipped in an npm package
 * (`dejavu-fonts-ttf`), embedded as a subset. It covers Latin, Greek, Cyrillic and many symbols, so
 * "—", "é", "ß" and "Ж" print as typed; what it lacks (CJK, emoji) prints as one visible box per
 * character as seen (a grapheme), never a "?" that reads as if the author had typed one.
 */
const require = createRequire(import.meta.url);
const FILES = { regular: "DejaVuSans.ttf", bold: "DejaVuSans-Bold.ttf" } as const;
/** WHITE SQUARE: the usual "no glyph" box, which DejaVu Sans has. */
export const MISSING_GLYPH = "\u25A1";

let bytes: Promise<{ regular: Buffer; bold: Buffer }> | null = null;
const fontBytes = () => {
  bytes ??= Promise.all([
    readFile(require.resolve(`dejavu-fonts-ttf/ttf/${FILES.regular}`)),
    readFile(require.resolve(`dejavu-fonts-ttf/ttf/${FILES.bold}`)),
  ]).then(([regular, bold]) => ({ regular, bold }));
  bytes.catch(() => {
    bytes = null;
  });
  return bytes;
};

export interface ReportFonts {
  font: PDFFont;
  bold: PDFFont;
  /** The text with each grapheme the fonts cannot draw replaced by MISSING_GLYPH. */
  printable(text: string): string;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

export async function embedReportFonts(pdf: PDFDocument): Promise<ReportFonts> {
  pdf.registerFontkit(fontkit);
  const { regular, bold } = await fontBytes();
  const font = await pdf.embedFont(regular, { subset: true });
  const boldFont = await pdf.embedFont(bold, { subset: true });
  // The bold face covers a little less than the regular one: keep what both can draw.
  const boldSet = new Set(boldFont.getCharacterSet());
  const drawable = new Set(font.getCharacterSet().filter((cp) => boldSet.has(cp)));
  const ok = (grapheme: string) => {
    for (const ch of grapheme) if (!drawable.has(ch.codePointAt(0)!)) return false;
    return true;
  };
  return {
    font,
    bold: boldFont,
    printable(text) {
      let out = "";
      for (const { segment } of segmenter.segment(text)) {
        if (segment === "\n" || segment === "\r\n") out += "\n";
        else if (/^\s$/u.test(segment)) out += " ";
        else out += ok(segment) ? segment : MISSING_GLYPH;
      }
      return out;
    },
  };
}
