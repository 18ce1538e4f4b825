import { useSyncExternalStore } from "react";

/**
 * "Show faces" (issue 32): one switch for the viewer, set in the details tab and read by the
 * preview's face layer. Kept for the session, not per asset: stepping through assets keeps it on.
 */
let shown = false;
const listeners = new Set<() => void>();

export const showFacesStore = {
  get: () => shown,
  set(value: boolean) {
    if (value === shown) return;
    shown = value;
    for (const l of listeners) l();
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export const useShowFaces = () =>
  useSyncExternalStore(showFacesStore.subscribe, showFacesStore.get, showFacesStore.get);
