import type { DuplicateGroup } from "@hangar/contract";

/** A duplicates group before its assets are serialised. */
export type Group = Omit<DuplicateGroup, "assets">;

/** Sizes and the space removing all but the largest would free. */
export function measured(kind: Group["kind"], ids: string[], sizes: Map<string, number>, distance: number): Group {
  const each = ids.map((id) => sizes.get(id) ?? 0);
  const size = each.reduce((s, x) => s + x, 0);
  return { kind, asset_ids: ids, count: ids.length, size, reclaimable: size - Math.max(0, ...each), distance };
}

/** Connected components of the pairs (union-find), each sorted, with the largest distance used inside. */
export function components(pairs: Array<{ a: string; b: string; d: number }>) {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r) ?? r;
    for (let y = x; parent.get(y) !== r; ) {
      const next = parent.get(y)!;
      parent.set(y, r);
      y = next;
    }
    return r;
  };
  for (const { a, b } of pairs) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
  const members = new Map<string, string[]>();
  const widest = new Map<string, number>();
  for (const x of parent.keys()) {
    const r = find(x);
    const list = members.get(r);
    if (list) list.push(x);
    else members.set(r, [x]);
  }
  for (const p of pairs) widest.set(find(p.a), Math.max(widest.get(find(p.a)) ?? 0, p.d));
  return [...members.entries()].map(([r, ids]) => ({ ids: ids.sort(), distance: widest.get(r) ?? 0 }));
}
