// bench/web: the browser on a big library. A workspace of ASSETS (100,000) assets — three real uploads
// processed by the pipeline, then cloned in SQL with their renditions hard-linked, so every card has a
// real picture — is opened in Chromium and its grid scrolled from top to bottom at a steady speed:
// frame times from requestAnimationFrame (goal p95 ≤ 20 ms, no frame over 100 ms), DOM nodes (bounded),
// the JS heap after the scroll; then the same cards as one plain static page (web-reference.ts: no
// framework, the same pictures, size and place) scrolled and measured the same way, its frame times
// printed beside the grid's with their ratio (how much is the machine's raster and decode, how much ours),
// and the CPU time of the renderer's main and compositor threads per 1,000 px scrolled (a trace's
// top-level tasks; steadier than frame times on a loaded machine);
// then the time from a click on a card to the viewer's first preview
// pixel, and the first-load JavaScript of the sign-in page, the grid and the viewer page (gzip).
// Run: npx tsx bench/web.ts   (ASSETS=100000, SPEED=20000 px/s, MAX_SECONDS=300; NO_BUILD=1 reuses
// apps/web/dist, WEB_DIST=dir serves another build; PROFILE=1 prints the grid scroll's top functions;
// CHROMIUM_PATH as for the browser tests)
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type CDPSession, chromium, type Page } from "@playwright/test";
import sharp from "sharp";
import { firstLoad, signedInContext } from "./browser.ts";
import { benchLogin, benchServer, benchUpload, stats, waitProcessed } from "./lib.ts";
import { seedClones } from "./seed-clones.ts";
import { measureGrid, openReference } from "./web-reference.ts";

const ASSETS = Number(process.env.ASSETS ?? 100_000);
const SPEED = Number(process.env.SPEED ?? 20_000);
const MAX_SECONDS = Number(process.env.MAX_SECONDS ?? 300);

if (process.env.NO_BUILD !== "1") {
  const built = spawnSync("npm", ["run", "build", "-w", "@hangar/web"], { stdio: "inherit" });
  if (built.status !== 0) throw new Error("bench/web: the web build failed");
}

// WEB_DIST=dir serves another build (two builds compared back to back).
const srv = await benchServer({
  serveWeb: true,
  work: true,
  env: { AI_TAGS: "0", ...(process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {}) },
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--enable-precise-memory-info"],
});
const tmp = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-web-"));
try {
  const { workspaceId, headers } = await benchLogin(srv);

  // Three real pictures through the real pipeline.
  const files: string[] = [];
  for (const [i, color] of ["#d9480f", "#1971c2", "#2b8a3e"].entries()) {
    const f = path.join(tmp, `seed-${i}.jpg`);
    await sharp({ create: { width: 2400, height: 1600, channels: 3, background: color } })
      .composite([
        {
          input: Buffer.from(
            `<svg width="2400" height="1600"><circle cx="${600 + i * 500}" cy="800" r="420" fill="#fff" opacity=".6"/></svg>`,
          ),
        },
      ])
      .jpeg({ quality: 85 })
      .toFile(f);
    files.push(f);
  }
  const seedIds = await benchUpload(srv, workspaceId, headers, files);
  if (await waitProcessed(srv, seedIds)) throw new Error("bench/web: a seed picture failed to process");

  const t0 = performance.now();
  await seedClones(srv, workspaceId, seedIds, ASSETS);
  console.log(
    `bench/web: ${ASSETS.toLocaleString("en")} assets seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s (${srv.label})`,
  );

  // The grid, scrolled from top to bottom.
  const ctx = await signedInContext(browser, srv.base, headers.cookie);
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send("Performance.enable");
  const tOpen = Date.now();
  await page.goto(`/w/${workspaceId}/b/all`);
  await page.locator('[data-testid="asset-card"] img').first().waitFor({ state: "visible", timeout: 60_000 });
  await page.waitForFunction(() => {
    const img = document.querySelector('[data-testid="asset-card"] img') as HTMLImageElement | null;
    return !!img && img.complete && img.naturalWidth > 0;
  });
  const firstThumbMs = Date.now() - tOpen;
  const gridGeometry = await measureGrid(page);
  const lastName = `picture-${String(ASSETS).padStart(6, "0")}.jpg`;
  const run = await scrollRun(page, cdp, lastName, process.env.PROFILE === "1");
  const { scroll } = run;
  const metrics = (await cdp.send("Performance.getMetrics")).metrics;
  const heap = metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0;
  const nodes = metrics.find((m) => m.name === "Nodes")?.value ?? 0;

  // A click on a card to the viewer's first preview pixel.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('[data-testid="asset-card"]').first().waitFor();
  const clickMs = await page.evaluate(async () => {
    const card = document.querySelector('[data-testid="asset-card"]') as HTMLElement;
    const t = performance.now();
    card.click();
    for (;;) {
      const img = document.querySelector('[data-testid="viewer-image"]') as HTMLImageElement | null;
      if (img?.complete && img.naturalWidth > 0) {
        await img.decode().catch(() => {});
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return performance.now() - t;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  });
  const viewerUrl = page.url();
  await ctx.close();

  // The reference: the same cards as one plain static page (web-reference.ts), in a context of its own, scrolled and measured the same way.
  const refCtx = await signedInContext(browser, srv.base, headers.cookie);
  const refPage = await refCtx.newPage();
  const refCdp = await refCtx.newCDPSession(refPage);
  await refCdp.send("Performance.enable");
  await openReference(refPage, srv.rt.db, workspaceId, gridGeometry);
  const ref = await scrollRun(refPage, refCdp, lastName, false);
  await refCtx.close();

  // First-load JavaScript per route, each in a fresh context (empty cache).
  const routes = [
    { label: "/a/login", url: "/a/login", ready: { role: "button" as const, name: "Sign in" }, signedIn: false },
    {
      label: "/w/{id}/b/all",
      url: `/w/${workspaceId}/b/all`,
      ready: { role: "heading" as const, name: "All assets" },
      signedIn: true,
    },
    {
      label: "/w/{id}/a/{asset}",
      url: new URL(viewerUrl).pathname,
      ready: { role: "button" as const, name: "Download" },
      signedIn: true,
    },
  ];
  const loads: string[] = [];
  for (const r of routes) {
    const c = r.signedIn
      ? await signedInContext(browser, srv.base, headers.cookie)
      : await browser.newContext({ baseURL: srv.base });
    const files = await firstLoad(c, r.url, r.ready);
    await c.close();
    loads.push(
      `${r.label.padEnd(20)} ${(files.reduce((s, f) => s + f.gzip, 0) / 1000).toFixed(1)} kB gzip in ${files.length} scripts`,
    );
  }

  console.log(
    `  grid scroll at ${SPEED.toLocaleString("en")} px/s: ${scroll.reachedEnd ? "reached the last asset" : `stopped after ${MAX_SECONDS} s`} in ` +
      `${(scroll.ms / 1000).toFixed(1)} s, ${scroll.scrolled.toLocaleString("en")} px, ${scroll.frames.length} frames ` +
      `(reference: ${(ref.scroll.ms / 1000).toFixed(1)} s, ${ref.scroll.frames.length} frames)`,
  );
  console.log(
    `  frame times, the grid beside the reference (${gridGeometry.columns} columns of ${gridGeometry.cardWidth.toFixed(0)}×${gridGeometry.cardHeight} px cards in a plain page, ${process.env.REFERENCE === "static" ? "every card in the HTML" : "windowed"}), goal p95 ≤ 20 ms, none over 100:`,
  );
  const row = (label: string, g: number[], r: number[]) => {
    const a = stats(g);
    const b = stats(r);
    const over = (x: number[]) => x.filter((t) => t > 100).length;
    const max = (x: number[]) => Math.max(0, ...x);
    const cell = (x: number, y: number, d = 1) => `${x.toFixed(d)} / ${y.toFixed(d)} (${(x / y).toFixed(2)}×)`;
    console.log(
      `    ${label.padEnd(20)} p50 ${cell(a.median, b.median)}, p95 ${cell(a.p95, b.p95)}, max ${cell(max(g), max(r), 0)}, ` +
        `over 100 ms ${over(g)} / ${over(r)}`,
    );
  };
  row("all frames", scroll.frames, ref.scroll.frames);
  row("moving frames", scroll.moving, ref.scroll.moving);
  console.log(
    "    (moving: frames that scrolled rows into view, not those at the end of the loaded pages waiting for the next)",
  );
  const cpu = (thread: string) =>
    `${run.cpuPer1000px(thread).toFixed(1)} / ${ref.cpuPer1000px(thread).toFixed(1)} ms (${(run.cpuPer1000px(thread) / ref.cpuPer1000px(thread)).toFixed(2)}×)`;
  console.log(
    `  CPU per 1,000 px scrolled, the grid / the reference: renderer main thread ${cpu("CrRendererMain")}, compositor ${cpu("Compositor")}`,
  );
  for (const [label, spent] of [
    ["grid", run.spent],
    ["reference", ref.spent],
  ] as const)
    console.log(
      `  renderer main thread during the ${label}'s scroll: tasks ${spent("TaskDuration").toFixed(1)} s, script ${spent("ScriptDuration").toFixed(1)} s, ` +
        `style ${spent("RecalcStyleDuration").toFixed(1)} s, layout ${spent("LayoutDuration").toFixed(1)} s`,
    );
  console.log(
    `  DOM: at most ${scroll.maxNodes} elements during the scroll, ${nodes} nodes after; JS heap after ${(heap / 1024 ** 2).toFixed(1)} MB`,
  );
  console.log(
    `  first thumbnail ${firstThumbMs} ms after navigation; card click → first preview pixel ${clickMs.toFixed(0)} ms`,
  );
  for (const l of loads) console.log(`  first load ${l}`);
} finally {
  await browser.close();
  await srv.close();
  await rm(tmp, { recursive: true, force: true });
}

/** The profile's top functions by self time (sampled), with where they are. */
function printProfile(profile: {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples?: number[];
  timeDeltas?: number[];
}) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let total = 0;
  for (const [i, id] of samples.entries()) {
    const n = byId.get(id);
    const dt = (deltas[i] ?? 0) / 1000;
    total += dt;
    if (!n) continue;
    const f = n.callFrame;
    const key = `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\/assets\//, "")}:${f.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  }
  // Who calls the layout readers (their time is layouts forced from script).
  const parent = new Map<number, number>();
  for (const n of profile.nodes as Array<{ id: number; children?: number[] }>)
    for (const c of n.children ?? []) parent.set(c, n.id);
  const callers = new Map<string, number>();
  for (const [i, id] of samples.entries()) {
    const n = byId.get(id);
    if (!n || !/getBoundingClientRect|scrollBy|offsetHeight|offsetWidth/.test(n.callFrame.functionName)) continue;
    const up = byId.get(parent.get(id) ?? -1)?.callFrame;
    const key = `${n.callFrame.functionName} ← ${up?.functionName || "(anonymous)"} ${up?.url.replace(/^.*\/assets\//, "")}:${up?.lineNumber}:${(up as { columnNumber?: number } | undefined)?.columnNumber}`;
    callers.set(key, (callers.get(key) ?? 0) + (deltas[i] ?? 0) / 1000);
  }
  for (const [k, ms] of [...callers.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6))
    console.log(`    layout read ${ms.toFixed(0).padStart(6)} ms  ${k}`);
  console.log(`  profile: ${(total / 1000).toFixed(1)} s sampled; top self time:`);
  for (const [k, ms] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`    ${ms.toFixed(0).padStart(7)} ms  ${k}`);
}

/**
 * Scrolls `page` from top to bottom at SPEED px/s, one scrollBy per requestAnimationFrame, until the card
 * named `lastName` shows (or MAX_SECONDS): the frame times, and the renderer's main-thread time meanwhile.
 * The grid and the reference page are both measured by this.
 */
async function scrollRun(page: Page, cdp: CDPSession, lastName: string, profile: boolean) {
  // PROFILE=1: a CPU profile of the page during the scroll, its top functions by self time printed.
  if (profile) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
    await cdp.send("Profiler.start");
  }
  const metric = async () => {
    const m = (await cdp.send("Performance.getMetrics")).metrics;
    return (name: string) => m.find((x) => x.name === name)?.value ?? 0;
  };
  // The CPU time of the renderer's threads (a trace's top-level tasks): less swayed by the machine's
  // load than frame times, which count the time the renderer waited for a core.
  type TraceEvent = { name: string; ph: string; tid: number; tdur?: number; args?: { name?: string } };
  const events: TraceEvent[] = [];
  const collect = (e: { value: TraceEvent[] }) => events.push(...e.value);
  cdp.on("Tracing.dataCollected", collect);
  await cdp.send("Tracing.start", { categories: "toplevel", transferMode: "ReportEvents" });
  const before = await metric();
  const scroll = await page.evaluate(
    async ({ speed, maxMs, lastName }) => {
      const frames: number[] = [];
      // Frames that scrolled rows into view, without those spent at the end of the loaded pages
      // waiting for the next one (their count follows the server's speed, not the grid's).
      const moving: number[] = [];
      let waiting = false;
      let maxNodes = 0;
      const start = performance.now();
      let last = start;
      let cards = 0;
      return await new Promise<{
        frames: number[];
        moving: number[];
        maxNodes: number;
        reachedEnd: boolean;
        ms: number;
        scrolled: number;
      }>((resolve) => {
        const step = (now: number) => {
          const dt = now - last;
          frames.push(dt);
          if (!waiting) moving.push(dt);
          last = now;
          waiting = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
          window.scrollBy(0, (speed * dt) / 1000);
          if (frames.length % 20 === 0) {
            maxNodes = Math.max(maxNodes, document.getElementsByTagName("*").length);
            cards = Math.max(cards, document.querySelectorAll('[data-testid="asset-card"]').length);
          }
          // The end: the last card's top in the viewport (the reference page has every card all along).
          const lastCard = document.querySelector(`[aria-label="${lastName}"]`);
          const reachedEnd = !!lastCard && lastCard.getBoundingClientRect().top < window.innerHeight;
          if (reachedEnd || now - start > maxMs)
            resolve({
              frames: frames.slice(1),
              moving: moving.slice(1),
              maxNodes,
              reachedEnd,
              ms: now - start,
              scrolled: window.scrollY,
            });
          else requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      });
    },
    { speed: SPEED, maxMs: MAX_SECONDS * 1000, lastName },
  );
  if (profile) printProfile((await cdp.send("Profiler.stop")).profile);
  const traced = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.end");
  await traced;
  cdp.off("Tracing.dataCollected", collect);
  const threads = new Map<number, string>();
  for (const e of events) if (e.ph === "M" && e.name === "thread_name" && e.args?.name) threads.set(e.tid, e.args.name);
  const cpuMs = new Map<string, number>();
  for (const e of events)
    if (e.ph === "X" && e.name === "ThreadControllerImpl::RunTask" && e.tdur) {
      const thread = (threads.get(e.tid) ?? "other").replace(/\d+$/, "");
      cpuMs.set(thread, (cpuMs.get(thread) ?? 0) + e.tdur / 1000);
    }
  /** CPU ms of a thread (CrRendererMain, Compositor) per 1,000 px scrolled. */
  const cpuPer1000px = (thread: string) => ((cpuMs.get(thread) ?? 0) / Math.max(1, scroll.scrolled)) * 1000;
  const after = await metric();
  const spent = (name: string) => after(name) - before(name);
  return { scroll, spent, cpuPer1000px };
}
