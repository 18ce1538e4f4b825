import { startTransition, useEffect, useState } from "react";

/**
 * False until the frame after the component first mounted, then true (set in a transition, so React
 * renders what it gates in slices the browser can paint between). A screen shows what matters first
 * (the viewer's picture) and what can wait (its side panels) just after, instead of both in one long
 * task before anything is painted.
 */
export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => startTransition(() => setReady(true)));
    return () => cancelAnimationFrame(frame);
  }, []);
  return ready;
}
