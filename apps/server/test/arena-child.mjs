// Child process of malloc-arenas.test.ts: a script that starts itself again as bin/hangar.mjs does,
// then says how it was started and waits for a signal. `exit N` ends at once with code N.
import { readFileSync } from "node:fs";
import { relaunchWithArenaMax } from "../bin/malloc-arenas.mjs";

if (!relaunchWithArenaMax(process.argv[1], process.argv.slice(2))) {
  // The environment the process was started with (what glibc read), not process.env as it is now.
  const startedWith = readFileSync("/proc/self/environ", "utf8")
    .split("\0")
    .find((v) => v.startsWith("MALLOC_ARENA_MAX="));
  const say = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
  let signals = 0;
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      signals++;
      say({ signal });
      // As the CLI does: a second signal right after the first is the same Ctrl-C.
      if (signals === 1) setImmediate(() => process.exit(signal === "SIGTERM" ? 7 : 0));
    });
  }
  // The report says the child is ready, so it comes after the handlers: a signal the test sends on
  // seeing it must find them (CI once saw SIGTERM arrive between the report and the handlers).
  say({
    pid: process.pid,
    ppid: process.ppid,
    startedWith: startedWith ?? null,
    env: process.env.MALLOC_ARENA_MAX ?? null,
  });
  if (process.argv[2] === "exit") process.exit(Number(process.argv[3]));
  setInterval(() => {}, 60_000);
}
