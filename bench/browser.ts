// What the browser benches share: the JavaScript a first load fetches, and a signed-in context.
import { gzipSync } from "node:zlib";
import type { Browser, BrowserContext } from "@playwright/test";

/** Loads `url` in a fresh context (empty cache) and answers the scripts fetched until `ready` shows. */
export async function firstLoad(ctx: BrowserContext, url: string, ready: { role: "button" | "heading"; name: string }) {
  const page = await ctx.newPage();
  const scripts = new Map<string, Promise<Buffer>>();
  page.on("response", (res) => {
    if (res.request().resourceType() === "script" && res.ok()) scripts.set(new URL(res.url()).pathname, res.body());
  });
  await page.goto(url);
  await page.getByRole(ready.role, { name: ready.name, exact: true }).first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState("networkidle");
  const files = await Promise.all(
    [...scripts].map(async ([name, body]) => {
      const bytes = await body;
      return { name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    }),
  );
  await page.close();
  return files.sort((a, b) => b.gzip - a.gzip);
}

/** A context carrying the session cookie of `benchLogin`'s headers. */
export async function signedInContext(
  browser: Browser,
  base: string,
  cookieHeader: string,
  viewport = { width: 1440, height: 900 },
) {
  const ctx = await browser.newContext({ baseURL: base, viewport });
  // tsx compiles the benches with esbuild's keepNames, which wraps functions passed to page.evaluate
  // in a `__name` helper the page does not have.
  await ctx.addInitScript({ content: "window.__name = (f) => f;" });
  await ctx.addCookies(
    cookieHeader.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: base };
    }),
  );
  return ctx;
}
