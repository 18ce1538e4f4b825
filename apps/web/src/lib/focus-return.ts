import { useEffect, useRef } from "react";

/**
 * Where focus goes back to when a dialog closes (issue 35). Mantine's dialogs remember their opener
 * only when `opened` changes while mounted; a dialog mounted already open (loaded on first use, or the
 * viewer, which is there while the address names an asset) or unmounted while open returned focus
 * to `<body>`, and a keyboard user lost their place.
 */

/** Things that hold focus only for a moment: menus and lists close, dialogs are what we return from. */
const TRANSIENT = '[role="menu"], [role="listbox"], [role="dialog"], [aria-modal="true"]';

let lastSteady: HTMLElement | null = null;
if (typeof document !== "undefined") {
  // The last element that had focus outside a menu or dialog: a menu item that opened a dialog is
  // gone once the menu closes, and its menu's button is where the user was.
  document.addEventListener(
    "focusin",
    (event) => {
      const target = event.target;
      if (target instanceof HTMLElement && !target.closest(TRANSIENT)) lastSteady = target;
    },
    true,
  );
}

/** What has focus as a dialog opens, or the steady element before it when that is a menu's item. */
function opener(): HTMLElement | null {
  const active = document.activeElement;
  if (active instanceof HTMLElement && active !== document.body && !active.closest(TRANSIENT)) return active;
  return lastSteady;
}

/** Mantine's own wait before it returns focus: the closing dialog has let go of it by then. */
const RETURN_DELAY_MS = 10;

/**
 * While `open`, remembers what opened it; when it closes (or unmounts open), focus goes back there,
 * or to `target()` when that names an element (the viewer: the card of the asset last shown), unless
 * focus has already moved somewhere on purpose.
 */
export function useReturnFocus(open: boolean, target?: () => HTMLElement | null) {
  const targetRef = useRef(target);
  targetRef.current = target;
  useEffect(() => {
    if (!open) return;
    const from = opener();
    return () => {
      const atClose = document.activeElement;
      window.setTimeout(() => {
        const now = document.activeElement;
        const lost = !now || now === document.body || now === atClose || !now.isConnected;
        if (!lost) return;
        const to = targetRef.current?.() ?? from;
        if (to?.isConnected) to.focus({ preventScroll: true });
      }, RETURN_DELAY_MS);
    };
  }, [open]);
}
