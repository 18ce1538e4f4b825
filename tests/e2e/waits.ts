import { expect, type Locator } from "@playwright/test";

/**
 * Waits until every element `locator` matches has stopped moving: no finite CSS transition or
 * animation running on it, inside it or on an ancestor (an endless spinner does not count), and the same boxes
 * over two animation frames. For what a fixed sleep used to wait out: sortable items making room,
 * a list's opening transition before a screenshot.
 */
export async function stoppedMoving(locator: Locator, timeout = 10_000) {
  await expect
    .poll(
      () =>
        locator.evaluateAll(async (els) => {
          const finite = (a: Animation) =>
            a.playState === "running" && a.effect?.getComputedTiming().endTime !== Infinity;
          // On the element, inside it, or on an ancestor that carries it along.
          const moving = (el: Element) => {
            if (el.getAnimations({ subtree: true }).some(finite)) return true;
            for (let up = el.parentElement; up; up = up.parentElement) if (up.getAnimations().some(finite)) return true;
            return false;
          };
          const running = els.some(moving);
          if (running || els.length === 0) return false;
          const boxes = () =>
            els
              .map((el) => {
                const r = el.getBoundingClientRect();
                return `${r.x},${r.y},${r.width},${r.height}`;
              })
              .join(" ");
          const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
          const before = boxes();
          await frame();
          await frame();
          return boxes() === before;
        }),
      { timeout, intervals: [50], message: "the elements stop moving" },
    )
    .toBe(true);
}

/** The values of the inputs `locator` matches, top to bottom on screen: an order as the eye sees it. */
export const valuesTopToBottom = (locator: Locator) =>
  locator.evaluateAll((els) =>
    els
      .map((el) => ({ top: el.getBoundingClientRect().top, value: (el as HTMLInputElement).value }))
      .sort((a, b) => a.top - b.top)
      .map((e) => e.value),
  );
