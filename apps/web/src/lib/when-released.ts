// A control replaced between a press and its click loses the click (the element under the pointer
// is gone), so code that swaps a first-paint stand-in for the real control waits for the release.

let pressed = false;
let fallback: ReturnType<typeof setTimeout> | undefined;
const afterRelease: Array<() => void> = [];

/** Presses held longer are rare (and lose nothing here); a release never seen must not leave a control dead. */
const LONGEST_WAIT_MS = 1500;

function flush() {
  clearTimeout(fallback);
  fallback = undefined;
  for (const run of afterRelease.splice(0)) run();
}

if (typeof window !== "undefined") {
  window.addEventListener("pointerdown", () => (pressed = true), true);
  const release = () => {
    pressed = false;
    // After the click that follows the release.
    setTimeout(() => {
      if (!pressed) flush();
    }, 0);
  };
  window.addEventListener("pointerup", release, true);
  window.addEventListener("pointercancel", release, true);
  // A release the page did not see (it happened outside the window, or on a node taken away).
  window.addEventListener("pointermove", (event) => pressed && event.buttons === 0 && release(), true);
}

/** Runs `run` now, or after the pointer button that is down now is released. */
export function whenReleased(run: () => void) {
  if (!pressed) return run();
  afterRelease.push(run);
  fallback ??= setTimeout(() => {
    pressed = false;
    flush();
  }, LONGEST_WAIT_MS);
}
