import { describe, expect, it } from "vitest";
import { nameWithExtension } from "./file-names.ts";

describe("nameWithExtension (zip entries and original downloads)", () => {
  it.each([
    ["j5-board.jpeg", "jpg", "j5-board.jpeg"],
    ["IMG_0001.JPG", "jpg", "IMG_0001.JPG"],
    ["photo.Jpeg", "jpg", "photo.Jpeg"],
    ["scan.tif", "tiff", "scan.tif"],
    ["scan.tiff", "tif", "scan.tiff"],
    ["page.htm", "html", "page.htm"],
    ["page.HTML", "htm", "page.HTML"],
    ["notes", "txt", "notes.txt"],
    ["archive.tar.gz", "gz", "archive.tar.gz"],
    ["report.pdf.exe", "pdf", "report.pdf.exe.pdf"],
    ["photo.png", "jpg", "photo.png.jpg"],
    ["v1.2 final", "pdf", "v1.2 final.pdf"],
    [".hidden", "txt", ".hidden.txt"],
    ["plain", "", "plain"],
    ["plain", null, "plain"],
  ])("%s as %s → %s", (name, ext, expected) => {
    expect(nameWithExtension(name, ext)).toBe(expected);
  });
});
