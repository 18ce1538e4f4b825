import { open } from "node:fs/promises";
import { fileTypeFromFile } from "file-type";

/**
 * Real-type detection for uploads (docs/architecture.md §6: "sniff the real type from the bytes, never trust the
 * name"). `file-type` covers binary signatures; text formats it cannot see (SVG, plain text, CSV, HTML)
 * and the Office members of the CFB family are recognised here from the first bytes.
 */

export type FileType = "IMAGE" | "VIDEO" | "DOCUMENT" | "AUDIO" | "ARCHIVE" | "OTHER";

export interface SniffResult {
  fileType: FileType;
  mime: string;
  /** Lower-case, no dot, [a-z0-9]{1,10}; "" only for unknown binary. */
  ext: string;
}

/** Enough for an XML prolog with comments and a DOCTYPE, and for a fair text/CSV verdict. */
const HEAD_BYTES = 64 * 1024;

const ARCHIVE_EXTS = new Set([
  "zip",
  "7z",
  "rar",
  "gz",
  "tar",
  "tar.gz",
  "bz2",
  "xz",
  "zst",
  "lz",
  "lz4",
  "lzh",
  "Z",
  "arj",
  "cab",
  "cpio",
  "ace",
]);

const DOCUMENT_EXTS = new Set([
  "pdf",
  "rtf",
  "epub",
  "mobi",
  // OOXML and their macro/template variants, reported by file-type from the zip's content types.
  "docx",
  "docm",
  "dotx",
  "dotm",
  "xlsx",
  "xlsm",
  "xltx",
  "xltm",
  "pptx",
  "pptm",
  "potx",
  "potm",
  "ppsx",
  "ppsm",
  "vsdx",
  // OpenDocument.
  "odt",
  "ods",
  "odp",
  "odg",
  "ott",
  "ots",
  "otp",
  "otg",
]);

const WEAK_SIGNATURES = new Set(["mp1", "mp2", "mp3", "aac"]);

/** Containers file-type labels `application/*` that are really video. */
const VIDEO_EXTS = new Set(["mxf", "rm", "asf", "mts", "ogv", "ogm"]);

/** Detect the type of the file at `path` from its content alone. */
export async function sniffFile(path: string): Promise<SniffResult> {
  const head = await readHead(path, HEAD_BYTES);
  if (head.length === 0) return { fileType: "OTHER", mime: "application/octet-stream", ext: "" };

  let detected = await fileTypeFromFile(path);
  // An MPEG audio frame sync is only 11 bits and the UTF-16 LE BOM (FF FE) satisfies it: a head
  // that decodes as text wins over such a weak signature.
  if (detected && WEAK_SIGNATURES.has(detected.ext) && decodeText(head) !== null) detected = undefined;
  if (detected) {
    // file-type calls any XML "xml"; SVG is XML that we treat as an image.
    if (detected.ext === "xml") {
      const text = decodeText(head);
      if (text !== null && looksLikeSvg(text)) return { fileType: "IMAGE", mime: "image/svg+xml", ext: "svg" };
      return { fileType: "OTHER", mime: "application/xml", ext: "xml" };
    }
    if (detected.ext === "cfb") return sniffCfb(path, head);
    return classify(detected.ext, detected.mime);
  }

  const text = decodeText(head);
  if (text === null) return { fileType: "OTHER", mime: "application/octet-stream", ext: "" };
  if (looksLikeSvg(text)) return { fileType: "IMAGE", mime: "image/svg+xml", ext: "svg" };
  if (text.startsWith("{\\rtf")) return { fileType: "DOCUMENT", mime: "application/rtf", ext: "rtf" };
  // Labelled so the download layer can force it to an attachment (docs/architecture.md §7), never rendered.
  if (/^\s*(<!doctype\s+html|<html[\s>])/i.test(text)) return { fileType: "DOCUMENT", mime: "text/html", ext: "html" };
  if (looksLikeCsv(text)) return { fileType: "DOCUMENT", mime: "text/csv", ext: "csv" };
  return { fileType: "DOCUMENT", mime: "text/plain", ext: "txt" };
}

function classify(rawExt: string, mime: string): SniffResult {
  const ext = rawExt === "tar.gz" ? "tgz" : rawExt.toLowerCase();
  let fileType: FileType = "OTHER";
  if (mime.startsWith("image/")) fileType = "IMAGE";
  else if (mime.startsWith("video/") || VIDEO_EXTS.has(rawExt)) fileType = "VIDEO";
  else if (mime.startsWith("audio/")) fileType = "AUDIO";
  else if (DOCUMENT_EXTS.has(rawExt)) fileType = "DOCUMENT";
  else if (ARCHIVE_EXTS.has(rawExt)) fileType = "ARCHIVE";
  return { fileType, mime, ext: sanitiseExt(ext) };
}

/**
 * Old Office files are all Compound File Binary containers; the stream names in the first directory
 * sector tell Word, Excel and PowerPoint apart. A CFB we cannot place is still reported as a document.
 */
async function sniffCfb(path: string, head: Buffer): Promise<SniffResult> {
  const generic: SniffResult = { fileType: "DOCUMENT", mime: "application/x-cfb", ext: "cfb" };
  if (head.length < 512) return generic;
  const sectorShift = head.readUInt16LE(0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) return generic;
  const sectorSize = 1 << sectorShift;
  const dirStart = head.readUInt32LE(0x30);
  if (dirStart >= 0xfffffffa) return generic;
  const dir = await readAt(path, (dirStart + 1) * sectorSize, sectorSize);
  const names: string[] = [];
  for (let at = 0; at + 128 <= dir.length; at += 128) {
    const nameBytes = Math.min(dir.readUInt16LE(at + 64), 64);
    if (nameBytes >= 2) names.push(dir.toString("utf16le", at, at + nameBytes - 2));
  }
  if (names.includes("WordDocument")) return { fileType: "DOCUMENT", mime: "application/msword", ext: "doc" };
  if (names.includes("Workbook") || names.includes("Book")) {
    return { fileType: "DOCUMENT", mime: "application/vnd.ms-excel", ext: "xls" };
  }
  if (names.includes("PowerPoint Document")) {
    return { fileType: "DOCUMENT", mime: "application/vnd.ms-powerpoint", ext: "ppt" };
  }
  return generic;
}

/**
 * The head as text, or null when it is binary: invalid UTF-8 (a sequence cut at the end of the head is
 * fine), NUL bytes, or control characters other than the usual whitespace/escape ones.
 * UTF-16 with a BOM is decoded too (Windows tools still write it for CSV and SVG).
 */
function decodeText(head: Buffer): string | null {
  let text: string;
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    const units = Buffer.from(head.subarray(2, 2 + ((head.length - 2) & ~1)));
    text = (head[0] === 0xfe ? units.swap16() : units).toString("utf16le");
    // Binary read as UTF-16 is full of unpaired surrogates (3% of random code units); text has none,
    // except perhaps a pair cut at the end of the head.
    if (
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(
        text.replace(/[\uD800-\uDBFF]$/, ""),
      )
    ) {
      return null;
    }
  } else {
    try {
      // stream: true tolerates a multi-byte character cut at the end of the head.
      text = new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    } catch {
      return null;
    }
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  }
  return hasBinaryControls(text) ? null : text;
}

/** Control characters that text does not contain. Allowed: \t \n \v \f \r and ESC (ANSI colours in logs). */
function hasBinaryControls(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && !(c >= 0x09 && c <= 0x0d) && c !== 0x1b) || c === 0x7f) return true;
  }
  return false;
}

/**
 * SVG: optional XML declaration, comments, processing instructions and a DOCTYPE (with or without an
 * internal subset), then the root element `<svg` (optionally namespace-prefixed).
 */
export function looksLikeSvg(text: string): boolean {
  let rest = text.replace(/^\uFEFF/, "");
  for (;;) {
    rest = rest.trimStart();
    const prolog =
      /^<\?[\s\S]*?\?>/.exec(rest) ??
      /^<!--[\s\S]*?-->/.exec(rest) ??
      /^<!DOCTYPE\s[^[>]*(\[[\s\S]*?\]\s*)?>/i.exec(rest);
    if (!prolog) break;
    rest = rest.slice(prolog[0].length);
  }
  return /^<(?:[A-Za-z_][\w.-]*:)?svg[\s>/]/.test(rest);
}

/**
 * CSV when at least two of the first complete lines split into the same number (≥2) of fields on one
 * of `,` `;` or tab, and every one of those lines agrees. Quoted fields are stripped first so commas in
 * quotes do not count.
 */
function looksLikeCsv(text: string): boolean {
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length > 1) lines.pop(); // the last line may be cut by the head limit
  const sample = lines.filter((l) => l.trim() !== "").slice(0, 20);
  if (sample.length < 2) return false;
  for (const sep of [",", ";", "\t"]) {
    const counts = sample.map((l) => l.replace(/"(?:[^"]|"")*"/g, "").split(sep).length);
    if (counts[0]! >= 2 && counts.every((c) => c === counts[0])) return true;
  }
  return false;
}

/**
 * The extension of a client-supplied name, for display and downloads only (never for typing):
 * lower-case, no dot, only [a-z0-9], 1–10 characters; "" when there is none or it is not plausible.
 */
export function extensionFromName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return ""; // no dot, or a dotfile such as ".env"
  return sanitiseExt(base.slice(dot + 1));
}

function sanitiseExt(raw: string): string {
  const ext = raw
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
  return ext.length >= 1 && ext.length <= 10 ? ext : "";
}

async function readHead(path: string, bytes: number): Promise<Buffer> {
  return readAt(path, 0, bytes);
}

async function readAt(path: string, position: number, length: number): Promise<Buffer> {
  const fh = await open(path, "r");
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, position);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}
