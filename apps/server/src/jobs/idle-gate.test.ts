import { describe, expect, it } from "vitest";
import { createIdleGate } from "./idle-gate.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("idle gate", () => {
  it("lets the background start only after the foreground has been quiet, through gaps between jobs", async () => {
    const gate = createIdleGate();
    const order: string[] = [];
    // Three foreground jobs back to back with 50 ms gaps, as a queue drains.
    const foreground = (async () => {
      for (let i = 0; i < 3; i++) {
        await gate.run(async () => {
          await sleep(150);
          order.push(`job ${i}`);
        });
        await sleep(50);
      }
    })();
    await sleep(10);
    const background = gate.idle({ quietMs: 300 }).then(() => order.push("background"));
    await Promise.all([foreground, background]);
    expect(order).toEqual(["job 0", "job 1", "job 2", "background"]);
    expect(gate.active).toBe(0);
  });

  it("never waits longer than its limit, and not at all when nothing ran", async () => {
    const gate = createIdleGate();
    const t0 = Date.now();
    await gate.idle({ quietMs: 1_000 });
    expect(Date.now() - t0).toBeLessThan(100);
    const long = gate.run(() => sleep(1_000));
    const t1 = Date.now();
    await gate.idle({ maxWaitMs: 200 });
    expect(Date.now() - t1).toBeGreaterThanOrEqual(190);
    expect(Date.now() - t1).toBeLessThan(800);
    await long;
  });
});
