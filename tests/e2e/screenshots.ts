import path from "node:path";
import type { Locator, Page } from "@playwright/test";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Where the specs' screenshots for review go: the repository's ignored test output (Playwright's
 * outputDir, emptied at the start of each run), or HANGAR_SCREENS_DIR (relative to the repository).
 */
export const SCREENS_DIR = path.resolve(root, process.env.HANGAR_SCREENS_DIR ?? "test-results/screens");

/** Saves `<name>.png` of a page (or of one element) in SCREENS_DIR. */
export const screenshot = (target: Page | Locator, name: string, opts: { fullPage?: boolean } = {}) =>
  target.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`), ...opts });

/** A spec's own `shot(page, name)`: its files are named `<prefix>-<name>.png`. */
export const screenshots =
  (prefix: string, opts: { fullPage?: boolean } = {}) =>
  (target: Page | Locator, name: string) =>
    screenshot(target, `${prefix}-${name}`, opts);
