import type { UploadDuplicate } from "@hangar/contract";
import { useSyncExternalStore } from "react";

/**
 * The uploads of this browser session, outside any component: the dialog can close while assets are
 * still processing, and the header indicator, the dialog and the poller read the same list.
 * Upload items are client state only (progress, the File to retry with, the id of the asset it
 * became). The asset itself is server state: it lives in TanStack Query's cache (the poller puts
 * what it fetched there, useUploadedAsset reads it) and the asset lists are invalidated when one
 * completes, so the grid shows it.
 */
export type UploadStatus = "uploading" | "processing" | "COMPLETED" | "error";

export interface UploadItem {
  id: string;
  workspaceId: string | null;
  /** The board it goes to (null: the workspace root, "All assets"). */
  boardId: string | null;
  file: File;
  name: string;
  /** Relative path inside a dropped or selected folder ("Shoot/day1/a.jpg"); null for a loose file. */
  path: string | null;
  size: number;
  status: UploadStatus;
  /** False while waiting for a free upload slot. */
  started: boolean;
  /** Bytes sent so far. */
  loaded: number;
  error: string | null;
  /** The error was the workspace's plan limit (402): the row offers the upgrade. */
  planLimit?: boolean;
  assetId: string | null;
  /** When it reached COMPLETED (ms), for "newest first". */
  completedAt: number | null;
  /** A new version of this asset (issue 29), not a new asset; its name as the dialog says it. */
  versionOf: { assetId: string; name: string } | null;
  /** The new version, once the server has numbered it ("v3 of {name}"). */
  versionId: string | null;
  versionNumber: number | null;
  /** The same bytes are already in the workspace: the upload waits for the user's choice meanwhile. */
  duplicates: readonly UploadDuplicate[] | null;
}

export interface UploadState {
  items: readonly UploadItem[];
  dialogOpen: boolean;
}

let state: UploadState = { items: [], dialogOpen: false };
const listeners = new Set<() => void>();
let seq = 0;
let pendingNotify: ReturnType<typeof setTimeout> | null = null;

function emit(): void {
  if (pendingNotify) {
    clearTimeout(pendingNotify);
    pendingNotify = null;
  }
  for (const listener of listeners) listener();
}

/** Progress events arrive many times a second per request: repaint at most ~10 times a second. */
function emitSoon(): void {
  pendingNotify ??= setTimeout(emit, 100);
}

function setItems(items: readonly UploadItem[], soon = false): void {
  state = { ...state, items };
  if (soon) emitSoon();
  else emit();
}

export type NewUpload = Pick<UploadItem, "workspaceId" | "boardId" | "file" | "path"> &
  Partial<Pick<UploadItem, "versionOf">>;

export const uploadStore = {
  getState: (): UploadState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get(id: string): UploadItem | undefined {
    return state.items.find((item) => item.id === id);
  },
  /** Queues new items (status uploading, not started) at the top of the list; answers them. */
  add(uploads: readonly NewUpload[]): UploadItem[] {
    const added = uploads.map<UploadItem>((u) => ({
      ...u,
      id: `upload-${++seq}`,
      name: u.file.name,
      size: u.file.size,
      status: "uploading",
      started: false,
      loaded: 0,
      error: null,
      assetId: null,
      completedAt: null,
      versionOf: u.versionOf ?? null,
      versionId: null,
      versionNumber: null,
      duplicates: null,
    }));
    setItems([...added, ...state.items]);
    return added;
  },
  /** `soon`: a progress tick, batched with others before listeners hear of it. */
  patch(id: string, patch: Partial<UploadItem>, soon = false): void {
    let changed = false;
    const items = state.items.map((item) => {
      if (item.id !== id) return item;
      changed = true;
      return { ...item, ...patch };
    });
    if (changed) setItems(items, soon);
  },
  patchMany(patches: ReadonlyMap<string, Partial<UploadItem>>, soon = false): void {
    if (patches.size === 0) return;
    setItems(
      state.items.map((item) => {
        const patch = patches.get(item.id);
        return patch ? { ...item, ...patch } : item;
      }),
      soon,
    );
  },
  remove(ids: readonly string[]): void {
    const gone = new Set(ids);
    setItems(state.items.filter((item) => !gone.has(item.id)));
  },
  setDialogOpen(dialogOpen: boolean): void {
    if (state.dialogOpen === dialogOpen) return;
    state = { ...state, dialogOpen };
    emit();
  },
  /** Sign-out: forget everything (the runner aborts what is in flight first). */
  reset(): void {
    state = { items: [], dialogOpen: false };
    emit();
  },
};

export function useUploads<T>(selector: (s: UploadState) => T): T {
  return useSyncExternalStore(uploadStore.subscribe, () => selector(uploadStore.getState()));
}

export const isFinished = (item: UploadItem) => item.status === "COMPLETED" || item.status === "error";

export interface UploadSummary {
  total: number;
  uploading: number;
  processing: number;
  completed: number;
  failed: number;
}

export function summarize(items: readonly UploadItem[]): UploadSummary {
  const s: UploadSummary = { total: items.length, uploading: 0, processing: 0, completed: 0, failed: 0 };
  for (const item of items) {
    if (item.status === "uploading") s.uploading++;
    else if (item.status === "processing") s.processing++;
    else if (item.status === "COMPLETED") s.completed++;
    else s.failed++;
  }
  return s;
}

/** "3 of 10 uploaded · 2 processing · 1 failed" (the zero parts left out). */
export function summaryLine(s: UploadSummary): string {
  const parts = [`${s.completed} of ${s.total} uploaded`];
  if (s.processing) parts.push(`${s.processing} processing`);
  if (s.failed) parts.push(`${s.failed} failed`);
  return parts.join(" · ");
}
