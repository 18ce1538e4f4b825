/** Test fixtures built in code (nothing binary is checked in). */
import zlib from "node:zlib";
import type { Sharp } from "sharp";

export { buildPdf, pdfStream } from "../src/ops/pdf-writer.ts";

import { buildPdf, pdfStream } from "../src/ops/pdf-writer.ts";

/** `count` pages of `width`×`height` points, each saying "Page N" in Helvetica. */
export function textPdf(count: number, width = 612, height = 792): Buffer {
  const bodies = ["<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"];
  const kids: string[] = [];
  for (let i = 0; i < count; i++) {
    bodies.push(pdfStream(`BT /F1 48 Tf 72 ${height - 120} Td (Page ${i + 1}) Tj ET 0 0 1 rg 72 72 200 100 re f`));
    bodies.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${bodies.length} 0 R >>`,
    );
    kids.push(`${bodies.length} 0 R`);
  }
  bodies[1] = `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${count} >>`;
  return buildPdf(bodies);
}

/**
 * The PDF with its cross-reference table's header and first entry overwritten by junk, as a bad
 * transfer leaves it (issue 27): PDFium gives up on it, poppler's pdftoppm rebuilds the table and
 * renders every page.
 */
export function brokenXrefPdf(pdf: Buffer): Buffer {
  const text = pdf.toString("latin1");
  const broken = text.replace(/\nxref\r?\n0 \d+\r?\n0000000000 65535 f/, '\nxref\n0 uqO_E^K>dj<I,"tBj^h,YZbv5,%R00');
  if (broken === text) throw new Error("no cross-reference table to break");
  return Buffer.from(broken, "latin1");
}

/** libvips writes EXIF from strings; IFD2 is the Exif IFD, IFD3 the GPS IFD. Rationals are "n/d". */
export type ExifDirs = { IFD0?: Record<string, string>; IFD2?: Record<string, string>; IFD3?: Record<string, string> };
export function cameraJpeg(image: Sharp, extra: ExifDirs = {}, omit: string[] = []) {
  const dirs: ExifDirs = {
    IFD0: { Make: "Canon  ", Model: "Canon EOS R5", ...extra.IFD0 },
    IFD2: {
      ISOSpeedRatings: "400",
      FNumber: "28/10",
      ExposureTime: "1/250",
      FocalLength: "50/1",
      DateTimeOriginal: "2024:05:01 12:30:00",
      OffsetTimeOriginal: "+02:00",
      LensModel: "RF50mm F1.8 STM",
      ...extra.IFD2,
    },
    IFD3: {
      GPSLatitudeRef: "N",
      GPSLatitude: "51/1 30/1 36/1",
      GPSLongitudeRef: "W",
      GPSLongitude: "0/1 7/1 30/1",
      GPSAltitudeRef: "0",
      GPSAltitude: "355/10",
      ...extra.IFD3,
    },
  };
  for (const d of Object.values(dirs)) for (const key of omit) delete d[key];
  return image.jpeg().withExif(dirs).toBuffer();
}

/** A valid PNG whose header claims `width`×`height` RGB, with almost no pixel data behind it. */
export function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(Buffer.alloc(1000))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A stored (uncompressed) zip: enough for a .docx or an archive sniff, no archive library needed. */
export function storedZip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text, "utf8");
    const nameBytes = Buffer.from(name, "utf8");
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * A silent H.264 test-pattern video made with the bundled ffmpeg, e.g. `testsrc=size=1280x720:rate=30:duration=40`
 * (long ones keep a worker busy for tests that stop it mid-job).
 */
export async function testPatternVideo(file: string, lavfiSource: string): Promise<void> {
  const { runTool } = await import("../src/media/limits.ts");
  const { ffmpegPath } = await import("../src/media/video.ts");
  await runTool(
    await ffmpegPath(),
    [
      "-v",
      "error",
      "-f",
      "lavfi",
      "-i",
      lavfiSource,
      "-pix_fmt",
      "yuv420p",
      "-c:v",
      "libx264",
      "-preset",
      "ultrafast",
      "-y",
      file,
    ],
    { timeoutMs: 120_000, maxOutputBytes: 1 << 20, reason: "test video" },
  );
}
