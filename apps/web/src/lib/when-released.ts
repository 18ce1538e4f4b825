// A control replaced between a press and its click loses the click (the element under the pointer
// is gone), so code that swaps a first-paint stand-in for the real control waits for the release.

let pressed = false;
const afterRelease: Array<() => void> = [];

if (typeof window !== "undefined") {
  window.addEventListener("pointerdown", () => (pressed = true), true);
  const release = () => {
    pressed = false;
    // After the click that follows the release.
    setTimeout(() => {
      if (pressed) return;
      for (const run of afterRelease.splice(0)) run();
    }, 0);
  };
  window.addEventListener("pointerup", release, true);
  window.addEventListener("pointercancel", release, true);
}

/** Runs `run` now, or after the pointer button that is down now is released. */
export function whenReleased(run: () => void) {
  if (pressed) afterRelease.push(run);
  else run();
}
