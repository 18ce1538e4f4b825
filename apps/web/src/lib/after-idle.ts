import { useEffect, useState } from "react";

/**
 * Runs `fn` once the page has settled: `delayMs` after now, then when the browser is idle (at most
 * `timeoutMs` later). Browsers without requestIdleCallback (older Safari) run it when the delay is
 * up. Answers the cancel. For UI the first paint does not need (the full boards tree, banners).
 */
export function afterIdle(fn: () => void, delayMs: number, timeoutMs = 2000): () => void {
  const hasIdle = typeof requestIdleCallback === "function";
  let idle = 0;
  const timer = setTimeout(() => {
    if (hasIdle) idle = requestIdleCallback(fn, { timeout: timeoutMs });
    else fn();
  }, delayMs);
  return () => {
    clearTimeout(timer);
    if (hasIdle) cancelIdleCallback(idle);
  };
}

/** False until the page has settled (see afterIdle), then true. */
export function useAfterIdle(delayMs = 2000): boolean {
  const [settled, setSettled] = useState(false);
  useEffect(() => afterIdle(() => setSettled(true), delayMs), [delayMs]);
  return settled;
}
