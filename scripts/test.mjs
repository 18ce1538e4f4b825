#!/usr/bin/env node
// `npm test`: the unit + API suite (vitest), then the browser flows (Playwright) when a Chromium is found.
import { spawnSync } from "node:child_process";

const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } }).status ?? 1;

const api = run("npx", ["vitest", "run"]);
if (api !== 0) process.exit(api);
process.exit(run("node", ["scripts/e2e.mjs"]));
