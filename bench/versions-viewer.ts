// bench/versions-viewer: the viewer's speed with versions (issue 29), in Chromium against a started
// server, warm (each measure repeated RUNS times after WARMUP runs, so scripts, answers and pictures
// are in the browser's caches, as for a reviewer going back and forth):
//   - opening an asset from the grid: a click on its card to the preview's first pixel;
//   - switching versions in the viewer: a click on "Show vN" in the version menu to that version's
//     first pixel;
//   - opening compare on two 12 MP versions: a click on "Compare" to both sides' first pixel.
// "First pixel": the preview's <img> loaded and decoded, then two animation frames (it is painted),
// as bench/web measures the grid → viewer open. Beside each, the reference (docs/architecture.md §8):
// the same pictures put into a plain page of the same origin as <img> elements, measured the same way
// (what the browser needs to fetch from its cache, decode and paint them at all); the ratio says what
// the app adds. The grid → viewer open is also cut into phases (click → address, → viewer in the DOM,
// → picture element, → loaded, → painted) to show where its time goes.
// Run: npx tsx bench/versions-viewer.ts   (RUNS=20, WARMUP=3; NO_BUILD=1 reuses apps/web/dist;
// CHROMIUM_PATH as for the browser tests)
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { signedInContext } from "./browser.ts";
import { benchLogin, benchServer, benchUpload, stats } from "./lib.ts";

const RUNS = Number(process.env.RUNS ?? 20);
const WARMUP = Number(process.env.WARMUP ?? 3);

if (process.env.NO_BUILD !== "1") {
  const built = spawnSync("npm", ["run", "build", "-w", "@hangar/web"], { stdio: "inherit" });
  if (built.status !== 0) throw new Error("bench/versions-viewer: the web build failed");
}

/** A 12 MP (4000×3000) picture of a round: shapes on a gradient, a little noise (a photo-like JPEG). */
async function twelveMp(file: string, round: number) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="3000">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#1c7ed6"/><stop offset="1" stop-color="#${round === 1 ? "0b7285" : "5f3dc4"}"/></linearGradient></defs>
    <rect width="4000" height="3000" fill="url(#g)"/>
    <circle cx="${2900 + round * 80}" cy="900" r="520" fill="${round === 1 ? "#ffd43b" : "#ff6b6b"}"/>
    <rect x="400" y="${1300 - round * 60}" width="2000" height="800" rx="60" fill="#fff" fill-opacity="0.85"/>
    <text x="520" y="${1850 - round * 60}" font-size="340" font-family="DejaVu Sans" fill="#1b2a3a">ROUND ${round}</text></svg>`;
  await sharp(Buffer.from(svg))
    .composite([
      {
        input: await sharp({
          create: { width: 4000, height: 3000, channels: 3, noise: { type: "gaussian", mean: 128, sigma: 6 } },
        })
          .png()
          .toBuffer(),
        blend: "overlay",
      },
    ])
    .jpeg({ quality: 85 })
    .toFile(file);
}

const srv = await benchServer({ serveWeb: true, work: true, env: { AI_TAGS: "0" } });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
const tmp = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-versions-"));
try {
  const { workspaceId, headers } = await benchLogin(srv);
  const api = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${srv.base}/api/v1${url}`, { method, headers, body: body && JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const files = [1, 2].map((n) => path.join(tmp, `poster-round${n}.jpg`));
  await Promise.all(files.map((f, i) => twelveMp(f, i + 1)));

  // v1 as an asset, then v2 as its new version (the upload protocol with version_of).
  const [assetId] = await benchUpload(srv, workspaceId, headers, [files[0]!]);
  const data = await readFile(files[1]!);
  const init = await api<{ direct_url?: string; upload_id: string; key: string }>(
    "POST",
    `/workspaces/${workspaceId}/assets/upload`,
    { name: "poster-round2.jpg", size: data.length, version_of: assetId },
  );
  if (!init.direct_url) throw new Error("bench/versions-viewer: expected a direct upload (under 5 MiB)");
  await fetch(`${srv.base}${init.direct_url}`, { method: "PUT", body: data });
  for (const started = Date.now(); ; ) {
    if (Date.now() - started > 300_000) throw new Error("bench/versions-viewer: v2 not processed after 5 min");
    const versions = await api<Array<{ status: string }>>(
      "GET",
      `/workspaces/${workspaceId}/assets/${assetId}/versions`,
    );
    if (versions.length === 2 && versions.every((v) => v.status === "COMPLETED")) break;
    if (versions.some((v) => v.status === "error")) throw new Error("bench/versions-viewer: a version failed");
    await new Promise((r) => setTimeout(r, 200));
  }
  const versions = await api<Array<{ number: number; thumbnail_url: string }>>(
    "GET",
    `/workspaces/${workspaceId}/assets/${assetId}/versions`,
  );
  const pictures = versions.map((v) => v.thumbnail_url);

  const ctx = await signedInContext(browser, srv.base, headers.cookie);
  const page = await ctx.newPage();
  const gridUrl = `/w/${workspaceId}/b/all`;

  // 1. The grid → viewer open, cut into phases.
  await page.goto(gridUrl);
  await page.locator('[data-testid="asset-card"] img').first().waitFor();
  const opens: Record<string, number>[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const phases = await page.evaluate(openFromGrid);
    if (i >= WARMUP) opens.push(phases);
    await page.goBack();
    await page.getByTestId("asset-viewer").waitFor({ state: "detached" });
  }

  // 2. Switching versions in the viewer (v2 ↔ v1), from the version menu.
  await page.goto(`/w/${workspaceId}/a/${assetId}`);
  await page.getByTestId("viewer-image").waitFor();
  const switches: Record<string, number>[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const to = i % 2 === 0 ? 1 : 2;
    await page.getByTestId("version-menu").click();
    await page.getByRole("button", { name: `Show v${to}` }).waitFor();
    const ms = await page.evaluate(showVersion, { label: `Show v${to}`, src: pictures[versions.length - to]! });
    if (i >= WARMUP) switches.push(ms);
  }

  // 3. Compare v1 and v2 (two 12 MP versions), from the version menu.
  const compares: Record<string, number>[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    await page.getByTestId("version-menu").click();
    await page.getByTestId("version-compare").waitFor();
    const ms = await page.evaluate(openCompare);
    if (i >= WARMUP) compares.push(ms);
    await page.keyboard.press("Escape");
    await page.getByTestId("compare-view").waitFor({ state: "detached" });
  }

  // The reference: the same pictures as <img> in a plain page of the same origin, warm as well.
  const ref = await ctx.newPage();
  await ref.goto(`${srv.base}/healthz`);
  const oneRef: number[] = [];
  const twoRef: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const one = await ref.evaluate(plainImages, [pictures[i % 2]!]);
    const two = await ref.evaluate(plainImages, pictures);
    if (i >= WARMUP) {
      oneRef.push(one);
      twoRef.push(two);
    }
  }
  await ctx.close();

  const cell = (xs: number[], ref: number[]) => {
    const a = stats(xs);
    const r = stats(ref);
    return `p50 ${a.median.toFixed(0).padStart(4)} ms (p95 ${a.p95.toFixed(0)})   reference ${r.median.toFixed(0).padStart(3)} ms   ${(a.median / r.median).toFixed(1)}×`;
  };
  const painted = (runs: Record<string, number>[]) => runs.map((o) => o.painted!);
  console.log(`bench/versions-viewer: warm, ${RUNS} runs each after ${WARMUP} (${srv.label}); goal ≤ 150 ms each`);
  console.log(`  grid → viewer, first pixel       ${cell(painted(opens), oneRef)}`);
  console.log(`  switch version in the viewer      ${cell(painted(switches), oneRef)}`);
  console.log(`  compare two 12 MP versions        ${cell(painted(compares), twoRef)}`);
  console.log("  where the time goes (p50, ms from the click):");
  const phases = (label: string, runs: Record<string, number>[], names: Record<string, string>) => {
    const at = (name: string) => stats(runs.map((o) => o[name] ?? Number.NaN)).median.toFixed(0);
    console.log(
      `    ${label.padEnd(16)} ${Object.entries(names)
        .map(([k, text]) => `${text} ${at(k)}`)
        .join(", ")}`,
    );
  };
  const picture = { element: "picture element", loaded: "loaded", decoded: "decoded", painted: "painted" };
  phases("grid → viewer", opens, { address: "address", dialog: "viewer in the DOM", ...picture });
  phases("switch version", switches, { address: "address", ...picture });
  phases("compare", compares, { dialog: "compare in the DOM", ...picture });
} finally {
  await browser.close();
  await srv.close();
  await rm(tmp, { recursive: true, force: true });
}

// In the page: each answers milliseconds from its click.

/** Clicks the first card; the moments the address, the viewer, its picture, its load and its paint arrive. */
async function openFromGrid(): Promise<Record<string, number>> {
  const card = document.querySelector('[data-testid="asset-card"]') as HTMLElement;
  const start = location.pathname;
  const t = performance.now();
  const at: Record<string, number> = {};
  card.click();
  for (;;) {
    const now = performance.now() - t;
    if (at.address === undefined && location.pathname !== start) at.address = now;
    if (at.dialog === undefined && document.querySelector('[data-testid="asset-viewer"]')) at.dialog = now;
    const img = document.querySelector('[data-testid="viewer-image"]') as HTMLImageElement | null;
    if (img && at.element === undefined) at.element = now;
    if (img?.complete && img.naturalWidth > 0) {
      at.loaded = now;
      await img.decode().catch(() => {});
      at.decoded = performance.now() - t;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      at.painted = performance.now() - t;
      return at;
    }
    if (performance.now() - t > 15_000) throw new Error("no picture after 15 s");
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** Clicks "Show vN" in the open version menu; the moments its address, picture, load and paint arrive. */
async function showVersion({ label, src }: { label: string; src: string }): Promise<Record<string, number>> {
  const button = document.querySelector(`[aria-label="${label}"]`) as HTMLElement;
  const want = new URL(src, location.href).pathname;
  const search = location.search;
  const t = performance.now();
  const at: Record<string, number> = {};
  button.click();
  for (;;) {
    const now = performance.now() - t;
    if (at.address === undefined && location.search !== search) at.address = now;
    const img = document.querySelector('[data-testid="viewer-image"]') as HTMLImageElement | null;
    const ours = !!img && new URL(img.src).pathname === want;
    if (ours && at.element === undefined) at.element = now;
    if (ours && img.complete && img.naturalWidth > 0) {
      at.loaded = now;
      await img.decode().catch(() => {});
      at.decoded = performance.now() - t;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      at.painted = performance.now() - t;
      return at;
    }
    if (performance.now() - t > 15_000) throw new Error("no picture after 15 s");
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** Clicks Compare in the open version menu; the moments compare, its pictures, their load and paint arrive. */
async function openCompare(): Promise<Record<string, number>> {
  const button = document.querySelector('[data-testid="version-compare"]') as HTMLElement;
  const t = performance.now();
  const at: Record<string, number> = {};
  button.click();
  for (;;) {
    const now = performance.now() - t;
    if (at.dialog === undefined && document.querySelector('[data-testid="compare-view"]')) at.dialog = now;
    const imgs = [
      ...document.querySelectorAll('[data-testid="compare-side"] [data-testid="viewer-image"]'),
    ] as HTMLImageElement[];
    if (imgs.length === 2 && at.element === undefined) at.element = now;
    if (imgs.length === 2 && imgs.every((img) => img.complete && img.naturalWidth > 0)) {
      at.loaded = now;
      await Promise.all(imgs.map((img) => img.decode().catch(() => {})));
      at.decoded = performance.now() - t;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      at.painted = performance.now() - t;
      return at;
    }
    if (performance.now() - t > 15_000) throw new Error("no picture after 15 s");
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** The reference: the pictures as plain <img> elements filling the page, until painted. */
async function plainImages(srcs: string[]): Promise<number> {
  document.body.replaceChildren();
  document.body.style.cssText = "margin:0;display:flex;height:100vh;background:#222";
  const t = performance.now();
  const imgs = srcs.map((src) => {
    const img = document.createElement("img");
    img.style.cssText = "flex:1;min-width:0;height:100%;object-fit:contain";
    img.src = src;
    document.body.append(img);
    return img;
  });
  for (;;) {
    if (imgs.every((img) => img.complete && img.naturalWidth > 0)) {
      await Promise.all(imgs.map((img) => img.decode().catch(() => {})));
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return performance.now() - t;
    }
    if (performance.now() - t > 15_000) throw new Error("no picture after 15 s");
    await new Promise((r) => setTimeout(r, 1));
  }
}
