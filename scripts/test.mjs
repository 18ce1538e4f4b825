#!/usr/bin/env node
// `npm test`: the unit + API suite (vitest), the byte-touching suites again on S3 storage (an S3
// server on loopback, vitest.s3.config.ts), then the browser flows (Playwright) when a Chromium is found.
import { spawnSync } from "node:child_process";

const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } }).status ?? 1;

// The whole API suite runs here, so its route-coverage gate is on (apps/server/test/route-coverage.ts).
const api = run("npx", ["vitest", "run"], { HANGAR_ROUTE_GATE: "1" });
if (api !== 0) process.exit(api);
const s3 = run("npx", ["vitest", "run", "--config", "vitest.s3.config.ts"]);
if (s3 !== 0) process.exit(s3);
process.exit(run("node", ["scripts/e2e.mjs"]));
