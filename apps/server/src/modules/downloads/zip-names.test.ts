import { describe, expect, it } from "vitest";
import { fileNameOf } from "./zip.ts";

describe("zip entry names keep an extension the name already has", () => {
  it.each([
    ["j5-board.jpeg", "jpg", "j5-board.jpeg"],
    ["IMG_1.JPG", "jpg", "IMG_1.JPG"],
    ["scan.tif", "tiff", "scan.tif"],
    ["scan.tiff", "tif", "scan.tiff"],
    ["page.htm", "html", "page.htm"],
    ["notes", "txt", "notes.txt"],
    ["clip.final.mov", "mov", "clip.final.mov"],
    ["photo.png", "jpg", "photo.png.jpg"],
    ["CON.jpeg", "jpg", "CON_.jpeg"],
  ])("%s (%s) → %s", (name, file_extension, expected) => {
    expect(fileNameOf({ name, file_extension })).toBe(expected);
  });
});
