import { useSyncExternalStore } from "react";
import { type DownloadEvent, type DownloadState, downloadReducer, IDLE } from "./download-state";

/**
 * One Download state for the whole app (spec 01 §4): the bulk bar, the card menus and the board page
 * all start downloads here, and one progress panel shows it.
 */
let state: DownloadState = IDLE;
const listeners = new Set<() => void>();

export const downloadStore = {
  getState: (): DownloadState => state,
  dispatch(event: DownloadEvent): void {
    const next = downloadReducer(state, event);
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useDownloadState(): DownloadState {
  return useSyncExternalStore(downloadStore.subscribe, downloadStore.getState);
}
