#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so there is no separate build step for the server.
import { relaunchWithArenaMax } from "./malloc-arenas.mjs";

// The processes that run the media pipeline start again with two malloc arenas (malloc-arenas.mjs).
const command = process.argv[2] ?? "start";
const relaunched =
  (command === "start" || command === "work") && relaunchWithArenaMax(process.argv[1], process.argv.slice(2));
if (!relaunched) {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli.ts");
}
