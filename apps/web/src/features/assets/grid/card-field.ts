import { useSyncExternalStore } from "react";

/**
 * Which custom field the grid's cards show as a coloured chip, per workspace and per browser (a
 * viewing preference, kept in local storage). null: none.
 */
const key = (workspaceId: string) => `hangar:card-field:${workspaceId}`;
const watchers = new Set<() => void>();

export function setCardField(workspaceId: string, fieldId: string | null) {
  try {
    if (fieldId) localStorage.setItem(key(workspaceId), fieldId);
    else localStorage.removeItem(key(workspaceId));
  } catch {
    // storage full or off: the choice lasts until reload
  }
  for (const w of watchers) w();
}

/** One subscribe function for every caller: React keeps the subscription across renders. */
function subscribe(cb: () => void) {
  watchers.add(cb);
  window.addEventListener("storage", cb);
  return () => {
    watchers.delete(cb);
    window.removeEventListener("storage", cb);
  };
}

export function useCardField(workspaceId: string): string | null {
  return useSyncExternalStore(subscribe, () => {
    try {
      return localStorage.getItem(key(workspaceId));
    } catch {
      return null;
    }
  });
}
