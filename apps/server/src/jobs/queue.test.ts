import { randomUUID } from "node:crypto";
import { pino } from "pino";
import { afterAll, expect, inject, it } from "vitest";
import { z } from "zod";
import { createJobs, type JobDefinition } from "./queue.ts";

/**
 * How the job engine spreads work over its slots. Long jobs (transcoding) must run side by side: a
 * slot that claimed a batch of them used to work them in turn while the other slot idled.
 */
const jobs = createJobs(inject("databaseUrl"), pino({ level: "silent" }), `jobs_test_${randomUUID().slice(0, 8)}`);
afterAll(() => jobs.stop(5_000));

const Payload = z.object({ n: z.number() });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function recorder(name: string, ms: number, oneAtATime: boolean) {
  const runs: { n: number; start: number; end: number }[] = [];
  const def: JobDefinition<typeof Payload> = {
    name,
    payload: Payload,
    oneAtATime,
    handle: async ({ n }) => {
      const start = performance.now();
      await sleep(ms);
      runs.push({ n, start, end: performance.now() });
    },
  };
  return { def, runs };
}

const until = async (done: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await sleep(50);
  expect(done()).toBe(true);
};

it("long jobs queued together run two at a time on two slots, and short jobs flow between them without waiting a poll each", async () => {
  const LONG_MS = 3_000;
  const long = recorder("slots-long", LONG_MS, true);
  const short = recorder("slots-short", 20, true);
  // Queue first, then start the workers: the first fetch sees every job at once (the case that
  // batching got wrong).
  await jobs.start([long.def, short.def], { work: false, concurrency: 2 });
  for (let n = 0; n < 4; n++) await jobs.send(long.def, { n });
  for (let n = 0; n < 20; n++) await jobs.send(short.def, { n });
  await jobs.start([long.def, short.def], { work: true, concurrency: 2 });
  await until(() => long.runs.length === 4 && short.runs.length === 20, 60_000);

  // Four long jobs on two slots: two rounds side by side, each job overlapping another (one slot
  // working a claimed batch in turn would overlap none).
  const overlapping = long.runs.filter((a) => long.runs.some((b) => b !== a && b.start < a.end && a.start < b.end));
  expect(overlapping.length).toBe(4);
  const [first, second] = [...long.runs].sort((a, b) => a.start - b.start);
  expect(second!.start).toBeLessThan(first!.end);
  // Order, not speed: the twenty short jobs are all done before the first round of long jobs ends.
  // Waiting out a 0.5 s poll each (5 s on two slots) would run them past it.
  expect(Math.max(...short.runs.map((r) => r.end))).toBeLessThan(Math.min(...long.runs.map((r) => r.end)));
});
