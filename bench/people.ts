// bench/people (issue 32): the face detector on real photos — per-picture time and the process's RSS —
// and the grouping's quality on a labelled set made for it: every face of the five group photos shipped
// with the tests (apps/server/test/files/faces, MIT, from @vladmandic/face-api's demo) and five crops
// of each (tight to loose, 140 to 500 px, one mirrored; apps/server/test/faces.ts), labelled by the face
// they were cut from. The faces arrive picture by picture as the detect-faces job sees them: each
// groupable face joins its nearest person within the threshold or waits, then the grouping job clusters
// the waiting ones (DBSCAN) and they join again — modules/people's own functions, in the service's order.
// Reported: pairs of groupable faces grouped together rightly and wrongly, pairs of the same face left
// apart, and faces left waiting.
// Run: npx tsx bench/people.ts
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { FACE_QUALITY_MIN } from "@hangar/contract";
import { createFaceDetector, type DetectedFace } from "../apps/server/src/media/faces.ts";
import {
  type Centroid,
  clusterDescriptors,
  meanOf,
  nearestPerson,
  withDescriptor,
} from "../apps/server/src/modules/people/grouping.ts";
import { CROP_VARIANTS, faceCrop, GROUP_PHOTOS, nearestBox } from "../apps/server/test/faces.ts";

const detector = createFaceDetector();
const dir = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-people-"));
const times: number[] = [];
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);

async function detect(file: string): Promise<DetectedFace[]> {
  const t = performance.now();
  const faces = await detector.detect(file);
  times.push(performance.now() - t);
  return faces;
}

interface Labelled {
  label: string;
  picture: string;
  quality: number;
  descriptor: number[];
}
const set: Labelled[] = [];
let facesInPhotos = 0;
let missedCrops = 0;
try {
  // Warm: the model load is not a picture's time.
  await detector.detect(GROUP_PHOTOS[0]!);
  for (const photo of GROUP_PHOTOS) {
    const name = path.basename(photo, ".jpg");
    const found = await detect(photo);
    facesInPhotos += found.length;
    for (const [i, face] of found.entries()) {
      const label = `${name}#${i}`;
      if (face.descriptor) set.push({ label, picture: name, quality: face.quality, descriptor: face.descriptor });
      for (const v of CROP_VARIANTS) {
        const crop = await faceCrop(photo, face.box, v);
        const file = path.join(dir, `${name}-${i}-${v.name}.jpg`);
        await writeFile(file, crop.bytes);
        const got = nearestBox(await detect(file), crop.centre);
        if (!got?.descriptor) missedCrops++;
        else set.push({ label, picture: `${name}-${i}-${v.name}`, quality: got.quality, descriptor: got.descriptor });
      }
    }
  }
} finally {
  clearInterval(sampler);
  await detector.close();
  await rm(dir, { recursive: true, force: true });
}

// The grouping as the product does it: picture by picture, join or wait; then the job; then join again.
const people = new Map<string, Centroid>();
const personOf = new Map<number, string>();
let nextId = 0;
const groupable = set.map((f, i) => ({ ...f, i })).filter((f) => f.quality >= FACE_QUALITY_MIN);
const join = (ids: number[]) => {
  for (const i of ids) {
    if (personOf.has(i)) continue;
    const near = nearestPerson(set[i]!.descriptor, [...people.values()]);
    if (!near) continue;
    personOf.set(i, near.id);
    people.set(near.id, withDescriptor(people.get(near.id)!, set[i]!.descriptor));
  }
};
join(groupable.map((f) => f.i));
const waiting = groupable.filter((f) => !personOf.has(f.i));
for (const g of clusterDescriptors(waiting.map((f) => f.descriptor))) {
  const id = `p${nextId++}`;
  const members = g.map((k) => waiting[k]!);
  for (const m of members) personOf.set(m.i, id);
  people.set(id, { id, centroid: meanOf(members.map((m) => m.descriptor))!, count: members.length });
}
join(groupable.map((f) => f.i));

let right = 0;
let wrong = 0;
let apart = 0;
for (let x = 0; x < groupable.length; x++)
  for (let y = x + 1; y < groupable.length; y++) {
    const a = groupable[x]!;
    const b = groupable[y]!;
    const together = personOf.has(a.i) && personOf.get(a.i) === personOf.get(b.i);
    if (a.label === b.label) together ? right++ : apart++;
    else if (together) wrong++;
  }
const labels = new Set(set.map((f) => f.label)).size;
const ungrouped = groupable.filter((f) => !personOf.has(f.i)).length;
const sorted = [...times].sort((p, q) => p - q);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(0);
const mean = times.reduce((s, t) => s + t, 0) / times.length;
const stats = await readFile("/proc/loadavg", "utf8").catch(() => "");

console.log(
  `bench/people: ${GROUP_PHOTOS.length} group photos, ${facesInPhotos} faces, ${CROP_VARIANTS.length} crops each (load ${stats.split(" ").slice(0, 3).join(" ")})`,
);
console.log(
  `  face detection per picture (1024 px max; detect + pose + descriptor): mean ${mean.toFixed(0)} ms, p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms over ${times.length} pictures`,
);
console.log(`  peak RSS of this process (detector thread included): ${(peakRss / 1024 ** 2).toFixed(0)} MB`);
console.log(
  `  labelled set: ${set.length} faces of ${labels} people (${missedCrops} crops where the face was not found); ${groupable.length} groupable (quality ≥ ${FACE_QUALITY_MIN})`,
);
console.log(`  grouping: ${people.size} people made; ${ungrouped} groupable faces left waiting`);
console.log(`  pairs of the same face grouped together (right):  ${right}`);
console.log(`  pairs of different faces grouped together (wrong): ${wrong}`);
console.log(`  pairs of the same face left apart:                 ${apart}`);
console.log(
  `  precision ${(right / Math.max(1, right + wrong)).toFixed(3)}, recall ${(right / Math.max(1, right + apart)).toFixed(3)}`,
);
