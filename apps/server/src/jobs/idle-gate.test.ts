import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createIdleGate } from "./idle-gate.ts";

// The gate reads Date.now and waits on setTimeout: fake timers drive both, so nothing here depends on
// how fast the machine is.
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

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
    await vi.advanceTimersByTimeAsync(10);
    const background = gate.idle({ quietMs: 300 }).then(() => order.push("background"));
    // The last job ends at 590 ms; the background may start 300 ms later, not before.
    await vi.advanceTimersByTimeAsync(600 + 250);
    expect(order).toEqual(["job 0", "job 1", "job 2"]);
    await vi.advanceTimersByTimeAsync(250);
    await Promise.all([foreground, background]);
    expect(order).toEqual(["job 0", "job 1", "job 2", "background"]);
    expect(gate.active).toBe(0);
  });

  it("never waits longer than its limit, and not at all when nothing ran", async () => {
    const gate = createIdleGate();
    let idled = false;
    void gate.idle({ quietMs: 1_000 }).then(() => (idled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(idled).toBe(true);

    const long = gate.run(() => sleep(1_000));
    let waited = false;
    void gate.idle({ maxWaitMs: 200 }).then(() => (waited = true));
    await vi.advanceTimersByTimeAsync(199);
    expect(waited).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(waited).toBe(true);
    expect(gate.active).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await long;
    expect(gate.active).toBe(0);
  });
});
