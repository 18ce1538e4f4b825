import { PROCESSING_POLL_MS } from "@hangar/contract";
import { isApiError } from "../../lib/api-client";
import { liveConnected, subscribeLive, watchLive } from "../../lib/live-events";
import { cacheAsset, fetchAsset, fetchVersionStatus, invalidateAsset, invalidateAssets } from "./api";
import { forEachLimit } from "./transport";
import { type UploadItem, uploadStore } from "./upload-store";

/**
 * Spec 01 §4: while any item is processing, poll its asset every PROCESSING_POLL_MS until it is
 * COMPLETED or error; stop when nothing is processing. Runs outside React, so closing the dialog
 * does not stop it. With the workspace's live stream open, a status change is heard at once and
 * asked for then; polling slows to a safety net, and returns to every 2 s whenever the stream is down.
 */
const POLL_CONCURRENCY = 6;
/** The safety net's pace while the live stream is open. */
const LIVE_POLL_MS = 15_000;

let timer: ReturnType<typeof setTimeout> | null = null;
let ticking = false;
let again = false;
const live = new Map<string, () => void>();

const polled = (item: UploadItem) => item.status === "processing" && !!item.assetId && !!item.workspaceId;

/** Listens to each workspace with processing items; a status change of one of them asks at once. */
function listen(items: UploadItem[]) {
  const wanted = new Set(items.map((i) => i.workspaceId as string));
  for (const [ws, stop] of live)
    if (!wanted.has(ws)) {
      stop();
      live.delete(ws);
    }
  for (const ws of wanted) {
    if (live.has(ws)) continue;
    const unsubscribe = subscribeLive(ws, (event) => {
      const items = uploadStore.getState().items;
      const ours =
        event.type === "resync" ||
        ((event.type === "asset.status" || event.type === "asset.version") &&
          items.some((i) => polled(i) && i.assetId === event.asset_id));
      if (ours) pollNow();
    });
    // The stream dropped: back to polling every 2 s from now, not after the slow timer.
    const unwatch = watchLive(ws, () => {
      if (!liveConnected(ws) && timer) pollNow();
    });
    live.set(ws, () => {
      unwatch();
      unsubscribe();
    });
  }
}

function pollNow() {
  if (ticking) {
    again = true;
    return;
  }
  if (timer) clearTimeout(timer);
  timer = null;
  void tick();
}

/** Schedules the next round, if anything is processing and none is scheduled or running. */
export function startPolling(): void {
  const items = uploadStore.getState().items.filter(polled);
  listen(items);
  if (timer || ticking || items.length === 0) return;
  // A new version that becomes current, fails or completes without becoming current is heard
  // (asset.version, migration 20261201-2901) like an asset's status: the slow pace is the fallback.
  const streaming = items.every((i) => liveConnected(i.workspaceId as string));
  timer = setTimeout(tick, streaming ? LIVE_POLL_MS : PROCESSING_POLL_MS);
}

export function stopPolling(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  for (const stop of live.values()) stop();
  live.clear();
}

async function tick(): Promise<void> {
  timer = null;
  ticking = true;
  const completedIn = new Set<string>();
  try {
    await forEachLimit(uploadStore.getState().items.filter(polled), POLL_CONCURRENCY, async (item) => {
      const workspaceId = item.workspaceId as string;
      try {
        if (item.versionId) return await pollVersion(item, completedIn);
        const asset = await fetchAsset(workspaceId, item.assetId as string);
        if (uploadStore.get(item.id)?.status !== "processing") return; // removed or retried meanwhile
        if (asset.status === "COMPLETED") {
          cacheAsset(workspaceId, asset);
          uploadStore.patch(item.id, { status: "COMPLETED", completedAt: Date.now() });
          completedIn.add(workspaceId);
        } else if (asset.status === "error") {
          cacheAsset(workspaceId, asset);
          uploadStore.patch(item.id, { status: "error", error: asset.error || "Processing failed" });
        }
      } catch (error) {
        // A refusal will not change by asking again; network errors and 5xx may.
        if (isApiError(error) && error.status >= 400 && error.status < 500 && ![408, 429].includes(error.status)) {
          const reason = error.status === 404 ? "The asset no longer exists" : error.detail;
          uploadStore.patch(item.id, { status: "error", error: reason });
        }
      }
    });
  } finally {
    ticking = false;
    for (const workspaceId of completedIn) invalidateAssets(workspaceId);
    if (again) {
      again = false;
      pollNow();
    } else startPolling();
  }
}

/** A new version: done when its own status is (it is then the asset's current one, or failed). */
async function pollVersion(item: UploadItem, completedIn: Set<string>) {
  const workspaceId = item.workspaceId as string;
  const assetId = item.assetId as string;
  const version = await fetchVersionStatus(workspaceId, assetId, item.versionId as string);
  if (uploadStore.get(item.id)?.status !== "processing") return;
  if (!version) {
    uploadStore.patch(item.id, { status: "error", error: "The version no longer exists" });
  } else if (version.status === "COMPLETED") {
    uploadStore.patch(item.id, { status: "COMPLETED", completedAt: Date.now() });
    completedIn.add(workspaceId);
  } else if (version.status === "error") {
    uploadStore.patch(item.id, { status: "error", error: version.error || "Processing failed" });
  } else return;
  invalidateAsset(workspaceId, assetId);
}
