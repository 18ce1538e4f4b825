// bench/patterns: user patterns (issue 27). Part 1: the time of one evaluation per pattern in our
// engines (the glob matcher of apps/server/src/modules/ai-actions/patterns.ts, RE2 through re2js) on the
// hostile 255-character input that froze a backtracking engine, and on a safe input beside native
// RegExp on that same safe input (the reference; native is never run on a hostile input: it would
// not come back). Part 2: /healthz latency over HTTP while 50 files an anonymous visitor sends through
// a request-files link are processed and three hostile actions evaluated on each, beside /healthz
// on the same server idle; then during five "run on all assets" of the same actions (evaluation alone).
// Run: npx tsx bench/patterns.ts   (RUNS=2000 evaluations per figure; BENCH_DATABASE_URL optional)
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { globMatches, patternMatches } from "../apps/server/src/modules/ai-actions/patterns.ts";
import { benchLogin, benchServer, stats } from "./lib.ts";

const RUNS = Number(process.env.RUNS ?? 2000);

/** The glob as the server compiled it before (a backtracking RegExp): only ever run on safe inputs. */
const globAsRegExp = (p: string) =>
  new RegExp(
    `^${p
      .split(/(\*\*|\*|\?)/)
      .map((s) =>
        s === "**" ? ".*" : s === "*" ? "[^/]*" : s === "?" ? "[^/]" : s.replace(/[.+^${}()|[\]\\]/g, "\\$&"),
      )
      .join("")}$`,
    "iu",
  );

/** Microseconds per call, median of five batches of RUNS/5 (after a warm-up batch). */
function perCall(fn: () => unknown): number {
  const batch = Math.max(1, Math.floor(RUNS / 5));
  for (let i = 0; i < batch; i++) fn();
  const out: number[] = [];
  for (let b = 0; b < 5; b++) {
    const t = performance.now();
    for (let i = 0; i < batch; i++) fn();
    out.push(((performance.now() - t) * 1000) / batch);
  }
  return stats(out).median;
}

type Case = { pattern: string; regex: boolean; hostile: string; safe: string };
const n255 = (body: string, tail: string) => body.repeat(255).slice(0, 255 - tail.length) + tail;
const CASES: Case[] = [
  { pattern: "*_*_*_*_*_*.jpg", regex: false, hostile: `${"_".repeat(110)}.png`, safe: "IMG_2026_11_25_a_b.png" },
  { pattern: "*a*a*a*a*a*ab", regex: false, hostile: "a".repeat(100), safe: "banana-bandana.jpg" },
  { pattern: "**/**/**/**/**/**/x", regex: false, hostile: "a/".repeat(127), safe: "Clients/Acme/Logos/2026/y" },
  { pattern: "^(a|a)*$", regex: true, hostile: n255("a", "!"), safe: "aaaaaaaaaaaaaaaaaaaa" },
  { pattern: "^(?:(?:a+))+$", regex: true, hostile: n255("a", "!"), safe: "aaaaaaaaaaaaaaaaaaaa" },
  { pattern: "(a+)+$", regex: true, hostile: n255("a", "!"), safe: "aaaaaaaaaaaaaaaaaaaa" },
  { pattern: "(a|aa)+$", regex: true, hostile: n255("a", "!"), safe: "aaaaaaaaaaaaaaaaaaaa" },
  { pattern: "(.*a){12}", regex: true, hostile: n255("a", "!".repeat(244)), safe: "abababababababababababab" },
  { pattern: "(\\w+\\s?)+$", regex: true, hostile: n255("word ", "!"), safe: "quarterly invoice lisbon" },
  { pattern: "^IMG_\\d{4}\\.JPG$", regex: true, hostile: n255("IMG_1", "!"), safe: "IMG_0042.JPG" },
];

console.log(`Part 1: one evaluation, microseconds (median of 5 batches, ${RUNS} calls)\n`);
console.log(
  [
    "pattern".padEnd(22),
    "ours, hostile".padStart(14),
    "ours, safe".padStart(11),
    "native, safe".padStart(13),
    "ours/native".padStart(12),
  ].join(" "),
);
for (const c of CASES) {
  const native = c.regex ? new RegExp(c.pattern, "iu") : globAsRegExp(c.pattern);
  const expected = native.test(c.safe);
  if (patternMatches(c.pattern, c.safe, c.regex) !== expected) throw new Error(`${c.pattern}: answers differ`);
  const hostile = perCall(() => patternMatches(c.pattern, c.hostile, c.regex));
  const ours = perCall(() => patternMatches(c.pattern, c.safe, c.regex));
  const ref = perCall(() => native.test(c.safe));
  console.log(
    [
      c.pattern.padEnd(22),
      hostile.toFixed(2).padStart(14),
      ours.toFixed(2).padStart(11),
      ref.toFixed(2).padStart(13),
      `${(ours / ref).toFixed(2)}×`.padStart(12),
    ].join(" "),
  );
}
const steps = { steps: 0 };
globMatches("*_*_*_*_*_*.jpg", `${"_".repeat(110)}.png`, steps);
console.log(`\nglob steps for the probe's case: ${steps.steps} (bound (n+1)(m+1) = ${115 * 16})`);

// Part 2: /healthz during 50 hostile evaluations.
const srv = await benchServer({ work: true, env: { AI_TAGS: "0", OCR: "0" } });
try {
  const { workspaceId: ws, headers } = await benchLogin(srv);
  const api = async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
    const res = await fetch(`${srv.base}/api/v1${path}`, {
      method,
      headers: { ...headers, ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const field = await api("POST", `/workspaces/${ws}/fields`, {
    title: "Kind",
    field_type: "SINGLE_SELECT",
    options: ["JPEG", "PNG", "Odd"].map((label) => ({ label, color: "#1971c2" })),
  });
  const opt = (label: string) => field.options.find((o: { label: string }) => o.label === label).id;
  const add = (label: string, config: unknown) =>
    api("POST", `/workspaces/${ws}/custom-fields/${field.id}/options/${opt(label)}/ai-actions`, {
      kind: "metadata_matches",
      config,
    });
  await add("JPEG", { file_name: "*_*_*_*_*_*.jpg" });
  await add("PNG", { file_name: "*_*_*_*_*_*.png" });
  await add("Odd", { file_name: "^(_|_)*$", use_regex: true });
  const board = await api("POST", `/workspaces/${ws}/boards`, { name: "Inbox" });
  const link = await api("POST", `/workspaces/${ws}/boards/${board.id}/file-requests`, {});

  const probe = async (until: () => boolean) => {
    const lat: number[] = [];
    while (!until()) {
      const t = performance.now();
      const res = await fetch(`${srv.base}/healthz`);
      await res.arrayBuffer();
      lat.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
    return lat;
  };
  const idleUntil = Date.now() + 3000;
  const idle = await probe(() => Date.now() > idleUntil);

  // The visitor: a CSRF token of their own, no session.
  const csrf = await fetch(`${srv.base}/api/v1/users/set-csrf-token`);
  const token = ((await csrf.json()) as { data: { csrftoken: string } }).data.csrftoken;
  const visitor = {
    "content-type": "application/json",
    cookie: `XSRF-TOKEN=${token}`,
    "x-csrftoken": token,
    "x-request-visit": randomUUID(),
  };
  let evaluated = 0;
  let done = false;
  const during = probe(() => done);
  const t0 = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < 50; i++) {
    const data = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: i * 5, g: 90, b: 40 } } })
      .png()
      .toBuffer();
    const res = await fetch(`${srv.base}/api/v1/request/${link.token}/upload`, {
      method: "POST",
      headers: visitor,
      body: JSON.stringify({ name: `${"_".repeat(110)}.png`, size: data.length }),
    });
    if (!res.ok) throw new Error(`visitor upload: ${res.status} ${await res.text()}`);
    const init = (await res.json()) as { asset_id: string; direct_url: string };
    await fetch(`${srv.base}${init.direct_url}`, { method: "PUT", body: new Uint8Array(data) });
    ids.push(init.asset_id);
  }
  const pending = new Set(ids);
  while (pending.size) {
    for (const id of [...pending]) {
      const r = (await api("GET", `/workspaces/${ws}/ai-actions/results?content_type=asset&object_id=${id}`)) as Array<{
        matched: boolean;
        option_label: string;
      }>;
      if (r.length === 3) {
        pending.delete(id);
        evaluated++;
        const hits = r.filter((x) => x.matched).map((x) => x.option_label);
        if (hits.join() !== "PNG") throw new Error(`wrong answer for ${id}: ${hits.join()}`);
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  done = true;
  const busy = await during;
  const elapsed = (performance.now() - t0) / 1000;

  // "Run on all assets": the same evaluations again without the pipeline around them, five times.
  let runDone = false;
  const duringRuns = probe(() => runDone);
  const r0 = performance.now();
  for (let i = 0; i < 5; i++) {
    const run = await api("POST", `/workspaces/${ws}/ai-actions/runs`, {});
    for (;;) {
      const state = await api("GET", `/workspaces/${ws}/ai-actions/runs/${run.id}`);
      if (state.status === "done") break;
      if (state.status === "failed") throw new Error(`run failed: ${state.error}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  runDone = true;
  const runs = await duringRuns;
  const runSeconds = (performance.now() - r0) / 1000;
  const show = (label: string, xs: number[]) => {
    const s = stats(xs);
    console.log(
      `${label.padEnd(34)} ${String(xs.length).padStart(5)} probes  p50 ${s.median.toFixed(1)} ms  p95 ${s.p95.toFixed(1)} ms  max ${Math.max(...xs).toFixed(1)} ms`,
    );
  };
  console.log(
    `\nPart 2: /healthz over HTTP (${srv.label}); ${evaluated} uploads processed and evaluated in ${elapsed.toFixed(1)} s`,
  );
  show("idle (reference)", idle);
  show("during uploads + evaluations", busy);
  console.log(`5 runs on all 50 assets (150 hostile evaluations each) in ${runSeconds.toFixed(1)} s:`);
  show("during the runs", runs);
} finally {
  await srv.close();
}
