import { AI_ACTION_CONFIGS, type AiActionKind } from "@hangar/contract";
import { describe, expect, it } from "vitest";
import { type AssetFacts, evaluate } from "./ai-evaluate.ts";
import { patternMatches } from "./patterns.ts";

/** The five kinds on hand-made facts (the API tests run them on real images). Configs go through the contract. */
const facts = (over: Partial<AssetFacts> = {}): AssetFacts => ({
  id: "00000000-0000-4000-8000-000000000001",
  name: "IMG_0042.JPG",
  width: 4000,
  height: 3000,
  camera_make: "Canon",
  camera_model: "Canon EOS R5",
  gps_latitude: 38.72,
  gps_longitude: -9.14,
  palette: [
    { hex: "#d23c28", share: 0.6 },
    { hex: "#1c7ed6", share: 0.3 },
    { hex: "#ffffff", share: 0.1 },
  ],
  quality: { sharpness: 72, contrast: 40, brightness: 55 },
  objects: [
    { label: "person", confidence: 0.81, box: [0.1, 0.2, 0.3, 0.5] },
    { label: "dog", confidence: 0.35, box: [0.6, 0.6, 0.2, 0.2] },
  ],
  words: ["Quarterly", "INVOICE", "No.", "2026-117", "Lisbon"].map((text, i) => ({
    text,
    confidence: 90,
    box: [i * 0.1, 0.1, i * 0.1 + 0.08, 0.15],
    page: 1,
  })),
  board_paths: ["Clients/Acme/Logos", "Archive"],
  ...over,
});
const run = (kind: AiActionKind, config: unknown, f = facts()) =>
  evaluate(kind, AI_ACTION_CONFIGS[kind].parse(config), f);

describe("AI action kinds", () => {
  it("object_detected: any listed label at or above the confidence, its box as evidence", () => {
    const hit = run("object_detected", { labels: ["dog", "person"], min_confidence: 0.5 });
    expect(hit).toMatchObject({ matched: true, confidence: 0.81 });
    expect(hit.evidence.objects).toEqual([{ label: "person", confidence: 0.81, box: [0.1, 0.2, 0.3, 0.5] }]);
    expect(run("object_detected", { labels: ["dog"] }).matched).toBe(false); // 0.35 < default 0.5
    expect(run("object_detected", { labels: ["dog"], min_confidence: 0.3 }).matched).toBe(true);
  });

  it("text_in_image: words any/all (case and punctuation aside), phrases in order, patterns", () => {
    expect(run("text_in_image", { words: ["invoice"] }).matched).toBe(true);
    expect(run("text_in_image", { words: ["invoice"], case_sensitive: true }).matched).toBe(false);
    expect(run("text_in_image", { words: ["quarterly invoice"] }).evidence.words!.map((w) => w.text)).toEqual([
      "Quarterly",
      "INVOICE",
    ]);
    expect(run("text_in_image", { words: ["invoice quarterly"] }).matched).toBe(false);
    expect(run("text_in_image", { words: ["invoice", "receipt"], match: "all" }).matched).toBe(false);
    expect(run("text_in_image", { words: ["invoice", "lisbon"], match: "all" }).matched).toBe(true);
    const p = run("text_in_image", { pattern: "no\\.\\s*\\d{4}-\\d+" });
    expect(p.matched).toBe(true);
    expect(p.evidence.words!.map((w) => w.text)).toEqual(["No.", "2026-117"]);
    expect(p.confidence).toBe(0.9);
    expect(run("text_in_image", { words: ["invoice"] }, facts({ words: [] })).matched).toBe(false);
  });

  it("dominant_color: a colour covering enough of the picture within the CIEDE2000 distance", () => {
    const red = run("dominant_color", { color: "#e03131" });
    expect(red.matched).toBe(true);
    expect(red.evidence.colors![0]!.hex).toBe("#d23c28");
    expect(red.confidence).toBeGreaterThan(0.8);
    expect(run("dominant_color", { color: "#1971c2", min_share: 0.5 }).matched).toBe(false); // blue is 30%
    expect(run("dominant_color", { color: "#2f9e44" }).matched).toBe(false);
    expect(run("dominant_color", { color: "#2f9e44" }, facts({ palette: null })).evidence.note).toBe("No palette");
  });

  it("image_quality: every given bound holds", () => {
    expect(run("image_quality", { min_sharpness: 70, max_brightness: 60 }).matched).toBe(true);
    expect(run("image_quality", { min_contrast: 50 }).matched).toBe(false);
    const none = facts({ quality: { sharpness: null, contrast: null, brightness: null } });
    expect(run("image_quality", { min_sharpness: 1 }, none).matched).toBe(false);
  });

  it("metadata_matches: globs or regexes on name and board path, camera, GPS box, orientation — all given must hold", () => {
    expect(run("metadata_matches", { file_name: "img_*.jpg" }).matched).toBe(true);
    expect(run("metadata_matches", { folder_path: "Clients/*/Logos" }).matched).toBe(true);
    expect(run("metadata_matches", { folder_path: "Clients/*" }).matched).toBe(false); // * stops at /
    expect(run("metadata_matches", { folder_path: "Clients/**" }).matched).toBe(true);
    expect(run("metadata_matches", { file_name: "^IMG_\\d{4}\\.JPG$", use_regex: true }).matched).toBe(true);
    expect(run("metadata_matches", { camera_make: "canon", camera_model: "R5" }).matched).toBe(true);
    expect(run("metadata_matches", { camera_make: "Nikon" }).matched).toBe(false);
    const lisbon = { gps_south: 38.6, gps_west: -9.3, gps_north: 38.8, gps_east: -9.0 };
    expect(run("metadata_matches", lisbon).matched).toBe(true);
    expect(run("metadata_matches", { ...lisbon, orientation: "portrait" }).matched).toBe(false);
    expect(run("metadata_matches", { orientation: "landscape" }).evidence.metadata).toEqual({
      orientation: "landscape",
    });
    expect(run("metadata_matches", lisbon, facts({ gps_latitude: null, gps_longitude: null })).matched).toBe(false);
    // A box across the antimeridian.
    const pacific = { gps_south: -20, gps_west: 170, gps_north: 0, gps_east: -170 };
    expect(run("metadata_matches", pacific, facts({ gps_latitude: -10, gps_longitude: 179 })).matched).toBe(true);
  });

  it("globs escape everything but * ? **", () => {
    expect(patternMatches("a.b(1)*", "a.b(1) final", false)).toBe(true);
    expect(patternMatches("a.b(1)*", "axb(1)", false)).toBe(false);
    expect(patternMatches("?.png", "x.png", false)).toBe(true);
  });
});
