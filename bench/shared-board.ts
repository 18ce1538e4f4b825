// bench/shared-board: a shared board of ASSETS (10,000) assets opened by a visitor in Chromium — time
// from navigation to the first thumbnail painted — beside a member opening the same board's page in
// the same run (its first thumbnail), median of RUNS fresh page loads each. The seed pictures go
// through the real pipeline; the rest are SQL clones with hard-linked renditions (bench/seed-clones).
// Run: npx tsx bench/shared-board.ts   (ASSETS=10000, RUNS=5; NO_BUILD=1 reuses apps/web/dist)
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium } from "@playwright/test";
import sharp from "sharp";
import { signedInContext } from "./browser.ts";
import { benchLogin, benchServer, benchUpload, stats, waitProcessed } from "./lib.ts";
import { seedClones } from "./seed-clones.ts";

const ASSETS = Number(process.env.ASSETS ?? 10_000);
const RUNS = Number(process.env.RUNS ?? 5);

if (process.env.NO_BUILD !== "1") {
  const built = spawnSync("npm", ["run", "build", "-w", "@hangar/web"], { stdio: "inherit" });
  if (built.status !== 0) throw new Error("bench/shared-board: the web build failed");
}

const srv = await benchServer({ serveWeb: true, work: true, env: { AI_TAGS: "0" } });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
const tmp = await mkdtemp(path.join(os.tmpdir(), "hangar-bench-shared-"));

/** Milliseconds from navigation to the first loaded <img> inside `selector` (fresh context each time). */
async function firstThumb(makeContext: () => Promise<BrowserContext>, url: string, selector: string) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const ctx = await makeContext();
    const page = await ctx.newPage();
    const t0 = Date.now();
    await page.goto(url);
    await page.waitForFunction(
      (sel) => {
        const img = document.querySelector(`${sel} img`) as HTMLImageElement | null;
        return !!img && img.complete && img.naturalWidth > 0;
      },
      selector,
      { timeout: 60_000 },
    );
    times.push(Date.now() - t0);
    await ctx.close();
  }
  return stats(times);
}

try {
  const { workspaceId, headers } = await benchLogin(srv);
  const api = (p: string, init: RequestInit = {}) =>
    fetch(`${srv.base}/api/v1${p}`, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });
  const board = (await (
    await api(`/workspaces/${workspaceId}/boards`, { method: "POST", body: JSON.stringify({ name: "Campaign" }) })
  ).json()) as { id: string };
  const files: string[] = [];
  for (const [i, color] of ["#d9480f", "#1971c2", "#2b8a3e"].entries()) {
    const f = path.join(tmp, `seed-${i}.jpg`);
    await sharp({ create: { width: 1600, height: 1200, channels: 3, background: color } })
      .jpeg({ quality: 85 })
      .toFile(f);
    files.push(f);
  }
  const seedIds = await benchUpload(srv, workspaceId, headers, files);
  if (await waitProcessed(srv, seedIds)) throw new Error("bench/shared-board: a seed picture failed to process");
  const t0 = performance.now();
  await seedClones(srv, workspaceId, seedIds, ASSETS, board.id);
  console.log(
    `bench/shared-board: ${ASSETS.toLocaleString("en")} assets in one board seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s (${srv.label})`,
  );
  const link = (await (await api(`/workspaces/${workspaceId}/share/board/${board.id}`)).json()) as { path: string };

  const member = await firstThumb(
    () => signedInContext(browser, srv.base, headers.cookie),
    `${srv.base}/w/${workspaceId}/b/${board.id}`,
    '[data-testid="asset-card"]',
  );
  const visitor = await firstThumb(
    async () => {
      const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await ctx.addInitScript({ content: "window.__name = (f) => f;" });
      return ctx;
    },
    `${srv.base}${link.path}`,
    '[data-testid="shared-card"]',
  );
  const row = (name: string, s: ReturnType<typeof stats>) =>
    `  ${name.padEnd(44)} p50 ${s.median.toFixed(0).padStart(5)} ms   p95 ${s.p95.toFixed(0).padStart(5)} ms`;
  console.log(`  ${RUNS} fresh page loads each, first thumbnail painted:`);
  console.log(row("member: the board's page", member));
  console.log(row("visitor: /s/{token} of the same board", visitor));
  console.log(`  ratio ${(visitor.median / member.median).toFixed(2)}× the member's time (p50)`);
} finally {
  await browser.close();
  await srv.close();
  await rm(tmp, { recursive: true, force: true });
}
