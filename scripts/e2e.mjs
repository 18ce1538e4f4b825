#!/usr/bin/env node
// Browser flows in Playwright against a started server, with the system Chromium.
// No Chromium: say so loudly; fail when E2E_REQUIRED=1 (CI sets it).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
if (!existsSync(chromium)) {
  const bar = "!".repeat(78);
  console.error(`\n${bar}\n!! BROWSER TESTS NOT RUN: no Chromium at ${chromium}.`);
  console.error("!! Install one (Debian: apt-get install -y chromium) or set CHROMIUM_PATH.");
  console.error(`${bar}\n`);
  process.exit(process.env.E2E_REQUIRED === "1" ? 1 : 0);
}
const run = (cmd, args) =>
  spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, CHROMIUM_PATH: chromium } }).status ?? 1;
const built = run("npm", ["run", "build", "-w", "@hangar/web"]);
if (built !== 0) process.exit(built);
process.exit(
  run("npx", ["playwright", "test", "--config", "tests/e2e/playwright.config.ts", ...process.argv.slice(2)]),
);
