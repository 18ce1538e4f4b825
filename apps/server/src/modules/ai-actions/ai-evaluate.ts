import type { AiActionConfig, AiActionKind, AiEvidence } from "@hangar/contract";
import { deltaE2000, hexToLab, type Lab } from "../../media/lab.ts";
import { patternMatches, userRegex } from "./patterns.ts";

/** What the pipeline knows of one asset, as the actions read it (evaluate-assets.ts gathers it). */
export interface AssetFacts {
  id: string;
  name: string;
  width: number | null;
  height: number | null;
  camera_make: string | null;
  camera_model: string | null;
  gps_latitude: number | null;
  gps_longitude: number | null;
  palette: Array<{ hex: string; share: number; lab?: Lab }> | null;
  quality: { sharpness: number | null; contrast: number | null; brightness: number | null };
  objects: Array<{ label: string; confidence: number; box: number[] | null }>;
  words: Array<{ text: string; confidence: number; box: number[]; page: number }>;
  /** OCR has not read the asset yet (the read-text job follows COMPLETED; the actions run again then). */
  text_pending?: boolean;
  /** "Clients/Acme/Logos" for every board the asset is in. */
  board_paths: string[];
}

export interface Evaluation {
  matched: boolean;
  /** 0–1: how sure; for a single select the most confident matching option wins. */
  confidence: number;
  evidence: AiEvidence;
}

const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;
const norm = (s: string, caseSensitive: boolean) =>
  (caseSensitive ? s : s.toLowerCase()).normalize("NFKD").replace(/\p{M}/gu, "");

function objectDetected(c: AiActionConfig<"object_detected">, f: AssetFacts): Evaluation {
  const wanted = new Set<string>(c.labels);
  const hits = f.objects.filter((o) => wanted.has(o.label) && o.confidence >= c.min_confidence);
  const shown = hits.length ? hits : f.objects.slice(0, 5);
  return {
    matched: hits.length > 0,
    confidence: hits.length ? Math.max(...hits.map((o) => o.confidence)) : 0,
    evidence: { objects: shown.map((o) => ({ label: o.label, confidence: round(o.confidence), box: o.box })) },
  };
}

function textInImage(c: AiActionConfig<"text_in_image">, f: AssetFacts): Evaluation {
  if (f.words.length === 0)
    return {
      matched: false,
      confidence: 0,
      evidence: { words: [], note: f.text_pending ? "Text not read yet" : "No text found" },
    };
  const cs = c.case_sensitive;
  const words = f.words.map((w) => ({ ...w, n: norm(w.text, cs).replace(/[^\p{L}\p{N}]/gu, "") }));
  const used = new Set<number>();
  let ok = true;
  if (c.words?.length) {
    const found = c.words.map((phrase) => {
      const tokens = norm(phrase, cs)
        .split(/\s+/)
        .map((t) => t.replace(/[^\p{L}\p{N}]/gu, ""))
        .filter(Boolean);
      // The phrase's tokens as consecutive OCR words (a word may carry punctuation the phrase lacks).
      for (let i = 0; i + tokens.length <= words.length; i++) {
        if (tokens.every((t, k) => words[i + k]!.n === t)) {
          for (let k = 0; k < tokens.length; k++) used.add(i + k);
          return true;
        }
      }
      return false;
    });
    ok = c.match === "all" ? found.every(Boolean) : found.some(Boolean);
  }
  if (ok && c.pattern) {
    const raw = f.words.map((w) => w.text).join(" ");
    const re = userRegex(c.pattern, cs);
    // RE2 answers "is there a match" fastest; where it is only matters when there is one.
    const found = re.test(raw) ? re.matcher(raw) : null;
    ok = !!found?.find();
    if (found && ok) {
      // The OCR words inside the match are its evidence (offsets in UTF-16 units, as indexOf's).
      const [from, to] = [found.start(), found.end()];
      let at = 0;
      f.words.forEach((w, i) => {
        const start = raw.indexOf(w.text, at);
        at = start + w.text.length;
        if (start < to && at > from) used.add(i);
      });
    }
  }
  const ev = [...used].sort((a, b) => a - b).map((i) => f.words[i]!);
  const conf = ev.length ? ev.reduce((s, w) => s + w.confidence, 0) / ev.length / 100 : 0;
  return {
    matched: ok && ev.length > 0,
    confidence: ok ? round(conf) : 0,
    evidence: { words: (ok ? ev : []).slice(0, 50) },
  };
}

function dominantColor(c: AiActionConfig<"dominant_color">, f: AssetFacts): Evaluation {
  if (!f.palette?.length) return { matched: false, confidence: 0, evidence: { colors: [], note: "No palette" } };
  const target = hexToLab(c.color);
  const scored = f.palette
    .map((p) => ({
      hex: p.hex,
      share: round(p.share),
      distance: round(deltaE2000(p.lab ?? hexToLab(p.hex), target), 1),
    }))
    .sort((a, b) => a.distance - b.distance);
  const hits = scored.filter((p) => p.share >= c.min_share && p.distance <= c.max_distance);
  const best = hits[0];
  return {
    matched: !!best,
    confidence: best ? round(1 - best.distance / (2 * c.max_distance)) : 0,
    evidence: { colors: hits.length ? hits : scored.slice(0, 1) },
  };
}

function imageQuality(c: AiActionConfig<"image_quality">, f: AssetFacts): Evaluation {
  const q = f.quality;
  if (q.sharpness === null && q.contrast === null && q.brightness === null)
    return { matched: false, confidence: 0, evidence: { note: "No quality scores (not an image)" } };
  const checks: Array<[number | undefined, number | null, (a: number, b: number) => boolean]> = [
    [c.min_sharpness, q.sharpness, (v, t) => v >= t],
    [c.max_sharpness, q.sharpness, (v, t) => v <= t],
    [c.min_contrast, q.contrast, (v, t) => v >= t],
    [c.max_contrast, q.contrast, (v, t) => v <= t],
    [c.min_brightness, q.brightness, (v, t) => v >= t],
    [c.max_brightness, q.brightness, (v, t) => v <= t],
  ];
  const ok = checks.every(([t, v, cmp]) => t === undefined || (v !== null && cmp(v, t)));
  const quality = Object.fromEntries(
    Object.entries(q)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, round(v as number, 1)]),
  );
  return { matched: ok, confidence: ok ? 1 : 0, evidence: { quality } };
}

function orientationOf(w: number | null, h: number | null): string | null {
  if (!w || !h) return null;
  return w === h ? "square" : w > h ? "landscape" : "portrait";
}

function metadataMatches(c: AiActionConfig<"metadata_matches">, f: AssetFacts): Evaluation {
  const seen: Record<string, string | number | null> = {};
  const conds: boolean[] = [];
  const has = (hay: string | null, needle: string) => !!hay && hay.toLowerCase().includes(needle.toLowerCase());
  if (c.file_name) {
    seen.file_name = f.name;
    conds.push(patternMatches(c.file_name, f.name, c.use_regex));
  }
  if (c.folder_path) {
    const hit = f.board_paths.find((p) => patternMatches(c.folder_path!, p, c.use_regex));
    seen.folder_path = hit ?? f.board_paths[0] ?? null;
    conds.push(!!hit);
  }
  if (c.camera_make) {
    seen.camera_make = f.camera_make;
    conds.push(has(f.camera_make, c.camera_make));
  }
  if (c.camera_model) {
    seen.camera_model = f.camera_model;
    conds.push(has(f.camera_model, c.camera_model));
  }
  if (c.gps_south !== undefined) {
    const [lat, lon] = [f.gps_latitude, f.gps_longitude];
    seen.gps_latitude = lat;
    seen.gps_longitude = lon;
    const inLon =
      lon !== null &&
      (c.gps_west! <= c.gps_east!
        ? lon >= c.gps_west! && lon <= c.gps_east!
        : lon >= c.gps_west! || lon <= c.gps_east!);
    conds.push(lat !== null && lat >= c.gps_south && lat <= c.gps_north! && inLon);
  }
  if (c.orientation) {
    seen.orientation = orientationOf(f.width, f.height);
    conds.push(seen.orientation === c.orientation);
  }
  const ok = conds.length > 0 && conds.every(Boolean);
  return { matched: ok, confidence: ok ? 1 : 0, evidence: { metadata: seen } };
}

/** One action against one asset's facts. Pure: the service loads facts and stores the outcome. */
export function evaluate(kind: AiActionKind, config: unknown, facts: AssetFacts): Evaluation {
  switch (kind) {
    case "object_detected":
      return objectDetected(config as AiActionConfig<"object_detected">, facts);
    case "text_in_image":
      return textInImage(config as AiActionConfig<"text_in_image">, facts);
    case "dominant_color":
      return dominantColor(config as AiActionConfig<"dominant_color">, facts);
    case "image_quality":
      return imageQuality(config as AiActionConfig<"image_quality">, facts);
    case "metadata_matches":
      return metadataMatches(config as AiActionConfig<"metadata_matches">, facts);
  }
}
