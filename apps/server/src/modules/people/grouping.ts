import clustering from "density-clustering";

/**
 * Grouping faces into people (issue 32; docs/architecture.md §6.2), pure: descriptors are unit
 * vectors (FaceRes, 1024 numbers), compared by cosine distance (1 − dot product). On the labelled
 * set of the tests (tests' faces/ fixtures, several crops and sizes of 22 faces) the same face stayed
 * within 0.28 and two different faces were never closer than 0.33: a face joins a person within
 * JOIN_DISTANCE of their centroid, and the job's DBSCAN links faces within CLUSTER_EPS.
 */
export const JOIN_DISTANCE = 0.3;
export const CLUSTER_EPS = 0.28;
/** A new person needs at least this many faces close together (a lone face waits). */
export const CLUSTER_MIN_FACES = 2;

export const dot = (a: readonly number[], b: readonly number[]) => {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
};
const norm = (a: readonly number[]) => Math.sqrt(dot(a, a));

/** Cosine distance of a unit descriptor to any vector (a centroid is a mean, shorter than 1). */
export function distanceTo(descriptor: readonly number[], centroid: readonly number[]): number {
  const n = norm(centroid);
  return n > 0 ? 1 - dot(descriptor, centroid) / n : 1;
}

export interface Centroid {
  id: string;
  centroid: number[];
  count: number;
}

/** The nearest person within JOIN_DISTANCE that the face was not rejected from, or null. */
export function nearestPerson(
  descriptor: readonly number[],
  people: readonly Centroid[],
  rejected: ReadonlySet<string> = new Set(),
): { id: string; distance: number } | null {
  let best: { id: string; distance: number } | null = null;
  for (const p of people) {
    if (rejected.has(p.id)) continue;
    const d = distanceTo(descriptor, p.centroid);
    if (d <= JOIN_DISTANCE && (!best || d < best.distance)) best = { id: p.id, distance: d };
  }
  return best;
}

/** The centroid with one more descriptor (a running mean). */
export function withDescriptor(c: Centroid, descriptor: readonly number[]): Centroid {
  const n = c.count + 1;
  return { id: c.id, count: n, centroid: c.centroid.map((v, i) => round(v + ((descriptor[i] ?? 0) - v) / n)) };
}

/** The mean of descriptors (null for none). */
export function meanOf(descriptors: readonly (readonly number[])[]): number[] | null {
  if (!descriptors.length) return null;
  const out = new Array<number>(descriptors[0]!.length).fill(0);
  for (const d of descriptors) for (let i = 0; i < out.length; i++) out[i]! += d[i] ?? 0;
  return out.map((v) => round(v / descriptors.length));
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

/** DBSCAN (density-clustering) over unit descriptors: groups of indexes, each a new person. */
export function clusterDescriptors(descriptors: number[][]): number[][] {
  if (descriptors.length < CLUSTER_MIN_FACES) return [];
  const dbscan = new clustering.DBSCAN();
  return dbscan.run(descriptors, CLUSTER_EPS, CLUSTER_MIN_FACES, (p, q) => 1 - dot(p, q));
}
