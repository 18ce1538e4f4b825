import { flushSync } from "react-dom";

// A control replaced between a press and its click loses the click (the element under the pointer
// is gone; a button's Space fires on a keyup that the new button never had the keydown of), so code
// that swaps a first-paint stand-in for the real control waits for the release. And the swap is
// rendered at once (flushSync), in the same task as the check: a render left for later could still
// land between a press that comes meanwhile and its click.

let pointerDown = false;
let keyDown = false;
let fallback: ReturnType<typeof setTimeout> | undefined;
const afterRelease: Array<() => void> = [];

/** Presses held longer are rare (and lose nothing here); a release never seen must not leave a control dead. */
const LONGEST_WAIT_MS = 1500;

const held = () => pointerDown || keyDown;

/** Runs `run` with its state updates rendered before this returns (outside React's render, as here). */
const now = (run: () => void) => flushSync(run);

function flush() {
  clearTimeout(fallback);
  fallback = undefined;
  for (const run of afterRelease.splice(0)) now(run);
}

/** Keys that press a focused button: Space clicks on its keyup; Enter on its keydown (held, it repeats). */
const pressKey = (event: KeyboardEvent) => event.key === " " || event.key === "Enter";

if (typeof window !== "undefined") {
  const release = () => {
    // After the click that follows the release.
    setTimeout(() => {
      if (!held()) flush();
    }, 0);
  };
  window.addEventListener("pointerdown", () => (pointerDown = true), true);
  const pointerUp = () => {
    pointerDown = false;
    release();
  };
  window.addEventListener("pointerup", pointerUp, true);
  window.addEventListener("pointercancel", pointerUp, true);
  // A release the page did not see (it happened outside the window, or on a node taken away).
  window.addEventListener("pointermove", (event) => pointerDown && event.buttons === 0 && pointerUp(), true);
  window.addEventListener(
    "keydown",
    (event) => {
      if (pressKey(event)) keyDown = true;
    },
    true,
  );
  const keyUp = () => {
    if (!keyDown) return;
    keyDown = false;
    release();
  };
  window.addEventListener("keyup", (event) => pressKey(event) && keyUp(), true);
  // A keyup the page did not see (focus went to another window meanwhile).
  window.addEventListener("blur", keyUp);
}

/**
 * Runs `run` now, or after the pointer button or key (Space, Enter) that is down now is released; its
 * state updates are rendered before it returns. Not from inside a render or an effect (flushSync).
 */
export function whenReleased(run: () => void) {
  if (!held()) return now(run);
  afterRelease.push(run);
  fallback ??= setTimeout(() => {
    pointerDown = false;
    keyDown = false;
    flush();
  }, LONGEST_WAIT_MS);
}
