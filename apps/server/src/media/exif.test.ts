import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cameraJpeg as cameraJpegOf } from "../../test/fixtures.ts";
import { exifDateToIso, formatExposure, jsonSafe, RAW_MAX_BYTES, readExif } from "./exif.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "hangar-exif-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let counter = 0;
async function fixture(bytes: Buffer | string): Promise<string> {
  const file = path.join(dir, `${counter++}-original`);
  await writeFile(file, bytes);
  return file;
}

const base = () => sharp({ create: { width: 60, height: 40, channels: 3, background: "#808080" } });
const cameraJpeg = (extra: Parameters<typeof cameraJpegOf>[1] = {}, omit: string[] = []) =>
  cameraJpegOf(base(), extra, omit);

describe("readExif", () => {
  it("reads camera, exposure, time and GPS", async () => {
    const exif = await readExif(await fixture(await cameraJpeg()));
    expect(exif).toMatchObject({
      make: "Canon",
      model: "Canon EOS R5",
      lens: "RF50mm F1.8 STM",
      iso: 400,
      aperture: 2.8,
      exposure_time: 0.004,
      exposure_display: "1/250",
      focal_length: 50,
      // 12:30 at +02:00 is 10:30 UTC.
      taken_at: "2024-05-01T10:30:00.000Z",
    });
    expect(exif.gps).not.toBeNull();
    expect(exif.gps!.latitude).toBeCloseTo(51.51, 5);
    expect(exif.gps!.longitude).toBeCloseTo(-0.125, 5);
    expect(exif.gps!.altitude).toBe(35.5);
  });

  it("keeps a JSON-safe copy of the raw tags", async () => {
    const exif = await readExif(await fixture(await cameraJpeg()));
    expect(JSON.parse(JSON.stringify(exif.raw))).toEqual(exif.raw);
    expect(exif.raw).toMatchObject({ Make: "Canon", Model: "Canon EOS R5", ISO: 400, FNumber: 2.8 });
    // Dates become ISO (wall clock, no zone), binary tags (ComponentsConfiguration, versions) are gone.
    expect(exif.raw.DateTimeOriginal).toBe("2024-05-01T12:30:00");
    expect(exif.raw).not.toHaveProperty("ComponentsConfiguration");
    expect(exif.raw).not.toHaveProperty("ExifVersion");
    for (const value of Object.values(exif.raw)) {
      expect(ArrayBuffer.isView(value) || Buffer.isBuffer(value)).toBe(false);
    }
  });

  it("caps the raw copy", async () => {
    const exif = await readExif(
      await fixture(await cameraJpeg({ IFD0: { ImageDescription: "x".repeat(20_000), Artist: "y".repeat(3000) } })),
    );
    expect(JSON.stringify(exif.raw).length).toBeLessThanOrEqual(RAW_MAX_BYTES);
    expect((exif.raw.ImageDescription as string).length).toBe(1024);
    expect(exif.make).toBe("Canon");

    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`Tag${i}`, "z".repeat(1000)]));
    const safe = jsonSafe(many);
    expect(JSON.stringify(safe).length).toBeLessThanOrEqual(RAW_MAX_BYTES);
    expect(Object.keys(safe).length).toBeGreaterThan(10);
  });

  it("treats a local time without an offset as UTC wall clock, whatever the server's zone", async () => {
    const file = await fixture(await cameraJpeg({}, ["OffsetTimeOriginal"]));
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York"; // Node applies a TZ change immediately
    try {
      expect(new Date(2024, 4, 1).getTimezoneOffset()).toBe(240);
      expect((await readExif(file)).taken_at).toBe("2024-05-01T12:30:00.000Z");
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("makes a below-sea-level altitude negative and ignores a 0,0 position", async () => {
    // libvips writes the BYTE tag GPSAltitudeRef as 0 whatever the string, so patch the IFD entry:
    // tag 0x0005, type 1 (BYTE), count 1 (little-endian TIFF), value in the first byte after it.
    const jpeg = Buffer.from(await cameraJpeg());
    const entry = jpeg.indexOf(Buffer.from([0x05, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00]));
    expect(entry).toBeGreaterThan(0);
    jpeg[entry + 8] = 1;
    const below = await readExif(await fixture(jpeg));
    expect(below.gps?.altitude).toBe(-35.5);
    const nowhere = await readExif(
      await fixture(await cameraJpeg({ IFD3: { GPSLatitude: "0/1 0/1 0/1", GPSLongitude: "0/1 0/1 0/1" } })),
    );
    expect(nowhere.gps).toBeNull();
  });

  it("returns all nulls, without throwing, when there is no EXIF", async () => {
    const empty = {
      make: null,
      model: null,
      lens: null,
      iso: null,
      aperture: null,
      exposure_time: null,
      exposure_display: null,
      focal_length: null,
      taken_at: null,
      gps: null,
      raw: {},
    };
    expect(await readExif(await fixture(await base().png().toBuffer()))).toEqual(empty);
    expect(await readExif(await fixture(await base().jpeg().toBuffer()))).toEqual(empty);
    expect(await readExif(await fixture("plain text, not an image"))).toEqual(empty);
    expect(await readExif(await fixture(Buffer.alloc(0)))).toEqual(empty);
    expect(await readExif(await fixture(Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x00, 0x10, 0x45, 0x78])))).toEqual(empty);
  });
});

describe("exif helpers", () => {
  it("formats exposure times as photographers write them", () => {
    expect(formatExposure(1 / 250)).toBe("1/250");
    expect(formatExposure(1 / 3)).toBe("1/3");
    expect(formatExposure(0.5)).toBe("1/2");
    expect(formatExposure(0.4)).toBe("0.4");
    expect(formatExposure(1)).toBe("1");
    expect(formatExposure(2.5)).toBe("2.5");
    expect(formatExposure(30)).toBe("30");
    expect(formatExposure(1 / 8000)).toBe("1/8000");
  });

  it("turns EXIF dates into ISO strings", () => {
    expect(exifDateToIso("2024:05:01 12:30:00")).toBe("2024-05-01T12:30:00.000Z");
    expect(exifDateToIso("2024:05:01 12:30:00", "-05:00")).toBe("2024-05-01T17:30:00.000Z");
    expect(exifDateToIso("2024:05:01")).toBe("2024-05-01T00:00:00.000Z");
    expect(exifDateToIso("0000:00:00 00:00:00")).toBeNull();
    expect(exifDateToIso("    ")).toBeNull();
    expect(exifDateToIso(20240501)).toBeNull();
  });
});
