import { PROCESSING_POLL_MS } from "@hangar/contract";
import { isApiError } from "../../lib/api-client";
import { cacheAsset, fetchAsset, invalidateAssets } from "./api";
import { forEachLimit } from "./transport";
import { type UploadItem, uploadStore } from "./upload-store";

/**
 * Spec 01 §4: while any item is processing, poll its asset every PROCESSING_POLL_MS until it is
 * COMPLETED or error; stop when nothing is processing. Runs outside React, so closing the dialog
 * does not stop it.
 */
const POLL_CONCURRENCY = 6;

let timer: ReturnType<typeof setTimeout> | null = null;
let ticking = false;

const polled = (item: UploadItem) => item.status === "processing" && !!item.assetId && !!item.workspaceId;

/** Schedules the next round, if anything is processing and none is scheduled or running. */
export function startPolling(): void {
  if (timer || ticking || !uploadStore.getState().items.some(polled)) return;
  timer = setTimeout(tick, PROCESSING_POLL_MS);
}

export function stopPolling(): void {
  if (timer) clearTimeout(timer);
  timer = null;
}

async function tick(): Promise<void> {
  timer = null;
  ticking = true;
  const completedIn = new Set<string>();
  try {
    await forEachLimit(uploadStore.getState().items.filter(polled), POLL_CONCURRENCY, async (item) => {
      const workspaceId = item.workspaceId as string;
      try {
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
    startPolling();
  }
}
