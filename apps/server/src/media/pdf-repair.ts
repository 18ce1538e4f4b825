/**
 * Rebuilds a damaged PDF's structure so PDFium can open it (issue 27): a broken cross-reference
 * table makes PDFium give up ("File not in PDF format or corrupted") where poppler reconstructs the
 * table and renders every page. pdf-lib (MIT, pure JavaScript, already used for comment exports)
 * never trusts the table: it reads the objects in file order, finds the catalog itself when the
 * trailer has lost it, and `save` writes a fresh table. Runs in the PDF worker thread
 * (document-worker.ts): parsing is synchronous and must be stoppable by its time limit.
 */
import { PDFDocument } from "pdf-lib";

const LOAD_OPTIONS = {
  ignoreEncryption: true,
  throwOnInvalidObject: false,
  updateMetadata: false,
  // No object streams in the repaired copy: the plainest shape for the renderer.
} as const;

/**
 * Cross-reference tables (`xref` … up to `trailer`) removed: pdf-lib parses a table it meets and
 * fails on a garbled one, while it needs none of it. Latin-1 keeps every byte as one character.
 */
export function withoutXrefTables(bytes: Uint8Array): Uint8Array {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  return Buffer.from(text.replace(/(^|[\r\n])xref\b[\s\S]*?(?=trailer\b)/g, "$1"), "latin1");
}

/** The document with a rebuilt structure; throws what the last attempt said when none works. */
export async function repairPdf(bytes: Uint8Array): Promise<{ bytes: Uint8Array; pageCount: number }> {
  // pdf-lib tells the console of every object it skips: a damaged file would fill the server's log.
  const warn = console.warn;
  console.warn = () => {};
  try {
    let doc: PDFDocument;
    try {
      doc = await PDFDocument.load(bytes, LOAD_OPTIONS);
    } catch {
      doc = await PDFDocument.load(withoutXrefTables(bytes), LOAD_OPTIONS);
    }
    const pageCount = doc.getPageCount();
    if (pageCount < 1) throw new Error("no page found");
    return { bytes: await doc.save({ useObjectStreams: false }), pageCount };
  } finally {
    console.warn = warn;
  }
}
