/**
 * Background work that should wait for this process's foreground jobs (OCR behind processing): the
 * foreground runs through `run`, the background awaits `idle` before it starts. Idle means nothing
 * ran for `quietMs` (a queue drains job after job with only a moment between), and never longer than
 * `maxWaitMs` in all, so the background is delayed, not starved.
 */
export interface IdleGate {
  run<T>(fn: () => Promise<T>): Promise<T>;
  idle(opts?: { quietMs?: number; maxWaitMs?: number }): Promise<void>;
  readonly active: number;
}

export function createIdleGate(): IdleGate {
  let active = 0;
  let lastEnd = 0;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  return {
    get active() {
      return active;
    },
    async run(fn) {
      active++;
      try {
        return await fn();
      } finally {
        active--;
        lastEnd = Date.now();
      }
    },
    async idle({ quietMs = 1_000, maxWaitMs = 5 * 60_000 } = {}) {
      const until = Date.now() + maxWaitMs;
      for (;;) {
        const now = Date.now();
        if (now >= until) return;
        if (active === 0 && now - lastEnd >= quietMs) return;
        await sleep(Math.min(250, until - now));
      }
    },
  };
}
