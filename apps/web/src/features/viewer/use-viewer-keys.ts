import type { Asset } from "@hangar/contract";
import { type RefObject, useEffect, useRef } from "react";
import { isTyping } from "../../lib/typing";

const menuOpen = (target: HTMLElement | null) =>
  !!target?.closest?.('[role="menu"], [role="listbox"], [aria-expanded="true"]');

/**
 * The viewer's keys: Escape closes (compare first), ← and → step through the listing. They work
 * wherever the focus is (on a fresh load it may not have reached the dialog yet). Answers the ref
 * for the dialog's content, which takes focus when the viewer opens with focus left outside it:
 * opened from a card by Enter while nothing inside could take focus yet, it stayed on the card
 * behind, whose own arrow keys then moved the grid instead of the viewer (issue 35).
 */
export function useViewerKeys(options: {
  previous?: Asset | null;
  next?: Asset | null;
  onStep(assetId: string): void;
  /** Closes the viewer. */
  onClose(): void;
  /** Set while an annotation is being drawn or written: Escape then belongs to it. */
  escapeBusy: RefObject<boolean>;
  /** Closes compare, when it is open. */
  compareOpen: RefObject<(() => void) | null>;
}): RefObject<HTMLDivElement | null> {
  // The listeners stay put; they read the latest neighbours and callbacks.
  const latest = useRef(options);
  latest.current = options;
  const content = useRef<HTMLDivElement | null>(null);

  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const el = content.current;
      if (el && !el.contains(document.activeElement)) el.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, []);

  useEffect(() => {
    const { escapeBusy, compareOpen } = latest.current;
    // Escape in the capture phase: a tooltip open on the focused button would otherwise swallow it.
    const onEscape = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || menuOpen(event.target as HTMLElement | null)) return;
      // A comment being written or edited, or an annotation being drawn, handles Escape itself.
      if ((event.target as HTMLElement | null)?.closest?.("[data-escape-local]") || escapeBusy.current) return;
      // Compare closes first, back to the viewer.
      if (compareOpen.current) return compareOpen.current();
      // From a text field too: its edit is saved on the way out (useAutosave flushes).
      latest.current.onClose();
    };
    // Arrows after everything inside has had its say (sliders, the player's frame steps, fields).
    const onArrow = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.defaultPrevented || isTyping(target) || menuOpen(target)) return;
      if (target?.getAttribute?.("role") === "slider" || compareOpen.current) return;
      const { previous, next, onStep } = latest.current;
      if (event.key === "ArrowLeft" && previous) onStep(previous.id);
      else if (event.key === "ArrowRight" && next) onStep(next.id);
    };
    window.addEventListener("keydown", onEscape, true);
    window.addEventListener("keydown", onArrow);
    return () => {
      window.removeEventListener("keydown", onEscape, true);
      window.removeEventListener("keydown", onArrow);
    };
  }, []);

  return content;
}
