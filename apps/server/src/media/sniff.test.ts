import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedZip } from "../../test/fixtures.ts";
import { extensionFromName, looksLikeSvg, sniffFile } from "./sniff.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "hangar-sniff-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Every fixture is written as "upload.bin" so the name can never be what decides. */
let counter = 0;
async function sniff(bytes: Buffer | string) {
  const file = path.join(dir, `${counter++}-upload.bin`);
  await writeFile(file, bytes);
  return sniffFile(file);
}

const zip = storedZip;

/** A Compound File Binary header plus one directory sector naming the given streams. */
function cfb(streams: string[]): Buffer {
  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(3, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(9, 0x1e); // 512-byte sectors
  header.writeUInt32LE(0, 0x30); // directory starts at sector 0, i.e. file offset 512
  const dirSector = Buffer.alloc(512);
  ["Root Entry", ...streams].slice(0, 4).forEach((name, i) => {
    const utf16 = Buffer.from(`${name}\0`, "utf16le");
    utf16.copy(dirSector, i * 128);
    dirSector.writeUInt16LE(utf16.length, i * 128 + 64);
  });
  return Buffer.concat([header, dirSector]);
}

describe("sniffFile", () => {
  it("detects raster images from their bytes", async () => {
    const img = sharp({ create: { width: 8, height: 8, channels: 3, background: "#336699" } });
    expect(await sniff(await img.clone().jpeg().toBuffer())).toEqual({
      fileType: "IMAGE",
      mime: "image/jpeg",
      ext: "jpg",
    });
    expect(await sniff(await img.clone().png().toBuffer())).toMatchObject({ fileType: "IMAGE", ext: "png" });
    expect(await sniff(await img.clone().webp().toBuffer())).toMatchObject({ fileType: "IMAGE", ext: "webp" });
    expect(await sniff(await img.clone().gif().toBuffer())).toMatchObject({ fileType: "IMAGE", ext: "gif" });
    expect(await sniff(await img.clone().tiff().toBuffer())).toMatchObject({ fileType: "IMAGE", ext: "tif" });
    expect(await sniff(await img.clone().avif().toBuffer())).toMatchObject({ fileType: "IMAGE", mime: "image/avif" });
  });

  it("recognises SVG after a BOM, XML declaration, comments and a DOCTYPE", async () => {
    const svg = `\uFEFF<?xml version="1.0"?>\n<!-- made by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`;
    expect(await sniff(svg)).toEqual({ fileType: "IMAGE", mime: "image/svg+xml", ext: "svg" });
    expect(await sniff('<svg xmlns="http://www.w3.org/2000/svg"></svg>')).toMatchObject({ ext: "svg" });
    // Other XML is not an image.
    expect(await sniff('<?xml version="1.0"?><plist version="1.0"></plist>')).toEqual({
      fileType: "OTHER",
      mime: "application/xml",
      ext: "xml",
    });
    expect(looksLikeSvg("<html><svg></svg></html>")).toBe(false);
    expect(looksLikeSvg("<svgfoo/>")).toBe(false);
  });

  it("classifies text, CSV, RTF and HTML as documents", async () => {
    expect(await sniff("Hello, world.\nSecond line only has no commas\n")).toEqual({
      fileType: "DOCUMENT",
      mime: "text/plain",
      ext: "txt",
    });
    expect(await sniff('name,age,city\n"Doe, Jane",41,Oslo\nBob,7,Rome\n')).toEqual({
      fileType: "DOCUMENT",
      mime: "text/csv",
      ext: "csv",
    });
    expect(await sniff("a;b\n1;2\n")).toMatchObject({ ext: "csv" });
    expect(await sniff("{\\rtf1\\ansi Hello}")).toMatchObject({ fileType: "DOCUMENT", mime: "application/rtf" });
    expect(await sniff("<!DOCTYPE html><html><body>x</body></html>")).toMatchObject({ mime: "text/html" });
    expect(await sniff("naïve café ✓ — UTF-8 text")).toMatchObject({ ext: "txt" });
    expect(await sniff(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("a,b\n1,2\n", "utf16le")]))).toMatchObject(
      {
        ext: "csv",
      },
    );
  });

  it("classifies PDF and Office files as documents", async () => {
    expect(await sniff("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n")).toEqual({
      fileType: "DOCUMENT",
      mime: "application/pdf",
      ext: "pdf",
    });
    const docx = zip({
      "[Content_Types].xml": `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
      "word/document.xml": "<w:document/>",
    });
    expect(await sniff(docx)).toMatchObject({ fileType: "DOCUMENT", ext: "docx" });
    expect(await sniff(cfb(["WordDocument"]))).toEqual({
      fileType: "DOCUMENT",
      mime: "application/msword",
      ext: "doc",
    });
    expect(await sniff(cfb(["Workbook"]))).toMatchObject({ fileType: "DOCUMENT", ext: "xls" });
    expect(await sniff(cfb(["Current User", "PowerPoint Document"]))).toMatchObject({ ext: "ppt" });
    expect(await sniff(cfb(["Something"]))).toMatchObject({ fileType: "DOCUMENT", ext: "cfb" });
  });

  it("classifies archives", async () => {
    expect(await sniff(zip({ "a.txt": "hello" }))).toEqual({
      fileType: "ARCHIVE",
      mime: "application/zip",
      ext: "zip",
    });
    expect(await sniff(zlib.gzipSync("hello"))).toMatchObject({ fileType: "ARCHIVE", ext: "gz" });
    const sevenZip = Buffer.concat([Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4]), Buffer.alloc(32)]);
    expect(await sniff(sevenZip)).toMatchObject({ fileType: "ARCHIVE", ext: "7z" });
    const tar = Buffer.alloc(1024);
    tar.write("a.txt", 0);
    tar.write("ustar\0", 257, "latin1");
    expect(await sniff(tar)).toMatchObject({ fileType: "ARCHIVE", ext: "tar" });
  });

  it("classifies audio and video", async () => {
    const wav = Buffer.alloc(44);
    wav.write("RIFF", 0);
    wav.writeUInt32LE(36, 4);
    wav.write("WAVEfmt ", 8);
    expect(await sniff(wav)).toMatchObject({ fileType: "AUDIO", ext: "wav" });
    const mp4 = Buffer.concat([
      Buffer.from([0, 0, 0, 0x18]),
      Buffer.from("ftypisom\0\0\x02\0isomiso2"),
      Buffer.alloc(64),
    ]);
    expect(await sniff(mp4)).toMatchObject({ fileType: "VIDEO", mime: "video/mp4", ext: "mp4" });
  });

  it("calls empty and unknown binary OTHER", async () => {
    expect(await sniff(Buffer.alloc(0))).toEqual({ fileType: "OTHER", mime: "application/octet-stream", ext: "" });
    const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 37) % 256));
    expect(await sniff(binary)).toEqual({ fileType: "OTHER", mime: "application/octet-stream", ext: "" });
  });

  it("ignores a lying name", async () => {
    const file = path.join(dir, "holiday.jpg");
    await writeFile(file, "%PDF-1.7\n%%EOF\n");
    expect(await sniffFile(file)).toMatchObject({ fileType: "DOCUMENT", ext: "pdf" });
  });
});

describe("extensionFromName", () => {
  it("is lower-case, dot-less and sanitised", () => {
    expect(extensionFromName("Photo.JPG")).toBe("jpg");
    expect(extensionFromName("archive.tar.gz")).toBe("gz");
    expect(extensionFromName("dir.v2/report")).toBe("");
    expect(extensionFromName("C:\\Users\\me\\notes.TxT ")).toBe("txt");
    expect(extensionFromName(".env")).toBe("");
    expect(extensionFromName("noext")).toBe("");
    expect(extensionFromName("weird.j<p>g")).toBe("jpg");
    expect(extensionFromName("long.abcdefghijk")).toBe("");
    expect(extensionFromName("unicode.ñé")).toBe("");
    expect(extensionFromName("trailing.")).toBe("");
  });
});
