import type { AssetListInput } from "@hangar/contract";
import { ms, stats } from "./lib.ts";
import { LISTING_CASES } from "./listing-cases.ts";

/**
 * bench/listing's smart-board cases (issue 33): a few of the listing's filters saved as smart boards
 * (through the API, as "Save as smart board" does), each listed by `board_id` beside the same filter
 * sent directly in the same run. A smart board's body is its saved filter, so the plan is the same;
 * what it adds is the board's lookup. Goal: p95 within 1.2× of the direct filter's + 2 ms. Besides the
 * listing's table (each case beside its own statements replayed raw), `compareSmart` asks each smart
 * board and its filter alternately, request by request, so a busy machine weighs on both alike.
 */
const SAVED = [
  "file_type IMAGE",
  "search 'sunset'",
  "tags includes 1 tag",
  "camera Canon, iso ≥ 800",
  "or_groups VIDEO | tag",
  "jpg by name",
];

export async function smartCases(base: string, headers: Record<string, string>, ws: string) {
  const out: Array<[string, AssetListInput]> = [];
  for (const label of SAVED) {
    const input = LISTING_CASES.find(([l]) => l === label)?.[1];
    if (!input) continue;
    const { order_by, page: _p, page_size: _s, ...filter } = input;
    const r = await fetch(`${base}/api/v1/workspaces/${ws}/boards`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: `smart ${label}`, kind: "smart", filter }),
    });
    if (r.status !== 201) throw new Error(`smart board ${label}: ${r.status} ${await r.text()}`);
    const { id } = (await r.json()) as { id: string };
    out.push([`smart: ${label}`, { board_id: id, ...(order_by ? { order_by } : {}) }]);
  }
  return out;
}

/** Each smart board and the same filter sent directly, alternately (which goes first alternates too). */
export async function compareSmart(
  url: string,
  headers: Record<string, string>,
  cases: Array<[string, AssetListInput]>,
  runs: number,
) {
  const ask = async (body: unknown) => {
    const t = performance.now();
    const r = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
    if (r.status !== 200) throw new Error(`${r.status} ${await r.text()}`);
    await r.arrayBuffer();
    return performance.now() - t;
  };
  for (const label of SAVED) {
    const smart = cases.find(([l]) => l === `smart: ${label}`)?.[1];
    const direct = LISTING_CASES.find(([l]) => l === label)?.[1];
    if (!smart || !direct) continue;
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < runs + 5; i++) {
      const [x, y] = i % 2 ? [await ask(direct), await ask(smart)] : [0, 0];
      const [y2, x2] = i % 2 ? [0, 0] : [await ask(smart), await ask(direct)];
      if (i < 5) continue; // warm-up
      a.push(x || x2);
      b.push(y || y2);
    }
    const d = stats(a);
    const s = stats(b);
    const ok = s.p95 <= 1.2 * d.p95 + 2;
    console.log(
      `${`smart: ${label}`.padEnd(30)} alternating: p50 ${ms(s.median)} vs ${ms(d.median)} (${(s.median / d.median).toFixed(2)}×), p95 ${ms(s.p95)} vs ${ms(d.p95)} (${(s.p95 / d.p95).toFixed(2)}×)   ${ok ? "ok" : "MISSED"}`,
    );
  }
}

/** Each smart board's p95 beside its filter sent directly. */
export function printSmartRatios(p95s: Record<string, number>) {
  for (const label of SAVED) {
    const smart = p95s[`smart: ${label}`];
    const direct = p95s[label];
    if (!smart || !direct) continue;
    const ok = smart <= 1.2 * direct + 2;
    console.log(
      `${`smart: ${label}`.padEnd(30)} / the same filter (p95): ${(smart / direct).toFixed(2)}×   goal ≤ 1.2× + 2 ms   ${ok ? "ok" : "MISSED"}`,
    );
  }
}
