import { MIB, UPLOAD_MESSAGES, type UploadInitBody } from "@hangar/contract";
import { abortUpload, completeUpload, initUpload, invalidateAsset, invalidateBoards, uploadFolderBatch } from "./api";
import { askDuplicate, sha256Of } from "./duplicates";
import type { PickedFile } from "./file-entries";
import { startPolling, stopPolling } from "./processing-poller";
import { messageOf, PART_TRIES, putBytes, RETRY_BASE_MS, sendParts, wait } from "./send-bytes";
import { isAbort, UploadError } from "./transport";
import { whenOwnerChanges } from "./upload-owner";
import { type UploadItem, uploadStore } from "./upload-store";

/**
 * Sends queued items: loose files one by one through the upload protocol (direct PUT up to 5 MiB,
 * else multipart), files from folders in upload-folder batches. At most FILE_SLOTS jobs at once;
 * a multipart file sends its parts a few at once and tries each a few times (send-bytes.ts).
 */
const FILE_SLOTS = 3;
const BATCH_MAX_BYTES = 200 * MIB;
const BATCH_MAX_FILES = 500;

type Job = { kind: "file"; id: string } | { kind: "batch"; ids: string[] };

const queue: Job[] = [];
const running = new Set<AbortController>();
/** The controller of each loose file being sent, so one upload can be cancelled on its own. */
const fileControllers = new Map<string, AbortController>();

/** The items of each folder batch being sent (one request each), so a batch can be stopped whole. */
const batchJobs = new Map<AbortController, readonly string[]>();

/** What a cancelled item says; it can be retried like any failed one. */
export const CANCELLED_MESSAGE = "Upload cancelled";
let active = 0;

export interface UploadTarget {
  workspaceId: string | null;
  boardId: string | null;
}

/** Adds what the user picked to the list and starts sending it. */
export function startUploads(picked: readonly PickedFile[], target: UploadTarget): void {
  if (picked.length === 0) return;
  const items = uploadStore.add(picked.map(({ file, path }) => ({ ...target, file, path })));
  enqueue(items);
}

/**
 * A file as the newest version of an asset (issue 29): it keeps the asset's place, and the dialog
 * opens to show it ("v3 of {name}").
 */
export function startVersionUpload(file: File, target: { workspaceId: string; assetId: string; name: string }): void {
  const versionOf = { assetId: target.assetId, name: target.name };
  const items = uploadStore.add([{ workspaceId: target.workspaceId, boardId: null, file, path: null, versionOf }]);
  uploadStore.setDialogOpen(true);
  enqueue(items);
}

/** Sends a failed item again, from the start. */
export function retryUpload(id: string): void {
  const item = uploadStore.get(id);
  if (item?.status !== "error") return;
  uploadStore.patch(id, {
    status: "uploading",
    started: false,
    loaded: 0,
    error: null,
    assetId: null,
    versionId: null,
    versionNumber: null,
  });
  enqueue([item]);
}

/**
 * Stops one loose file: taken off the queue, or its requests aborted mid-way; a start the server
 * already answered is given up there too (its asset or new version goes at once: sendFile).
 */
export function cancelUpload(id: string): void {
  const item = uploadStore.get(id);
  if (item?.status !== "uploading" || item.path) return;
  const queued = queue.findIndex((job) => job.kind === "file" && job.id === id);
  if (queued >= 0) queue.splice(queued, 1);
  fileControllers.get(id)?.abort();
  uploadStore.patch(id, { status: "error", error: CANCELLED_MESSAGE });
}

/**
 * The dialog's "Cancel all": stops every item of the workspace still being sent. Queued files and
 * batches are dropped; a loose file's requests are aborted as in cancelUpload; a folder batch's one
 * request is aborted before the server has its whole body (the server then keeps none of it). A batch
 * already sent in full is left to finish, since the server is filing its assets by then.
 */
export function cancelAllUploads(workspaceId: string | null): void {
  const mine = (id: string) => {
    const item = uploadStore.get(id);
    return item?.status === "uploading" && (workspaceId === null || item.workspaceId === workspaceId);
  };
  const stopped = new Set<string>();
  for (let i = queue.length - 1; i >= 0; i--) {
    const job = queue[i] as Job;
    const ids = job.kind === "file" ? [job.id] : job.ids;
    if (!ids.every(mine)) continue;
    queue.splice(i, 1);
    for (const id of ids) stopped.add(id);
  }
  for (const [id, controller] of fileControllers) {
    if (!mine(id)) continue;
    controller.abort();
    stopped.add(id);
  }
  for (const [controller, ids] of batchJobs) {
    if (!ids.some(mine)) continue;
    const sentWhole = ids.every((id) => {
      const item = uploadStore.get(id);
      return !item || item.loaded >= item.size;
    });
    if (sentWhole) continue;
    controller.abort();
    for (const id of ids) stopped.add(id);
  }
  const patch = { status: "error" as const, error: CANCELLED_MESSAGE };
  uploadStore.patchMany(new Map([...stopped].filter(mine).map((id) => [id, patch])));
}

/** Stops every request and the poller and forgets the list (another user signed in: upload-owner.ts). */
export function stopAllUploads(): void {
  queue.length = 0;
  for (const controller of running) controller.abort();
  running.clear();
  fileControllers.clear();
  batchJobs.clear();
  stopPolling();
  uploadStore.reset();
}

function enqueue(items: readonly UploadItem[]): void {
  let batch: string[] = [];
  let batchBytes = 0;
  for (const item of items) {
    if (!item.path) {
      queue.push({ kind: "file", id: item.id });
      continue;
    }
    if (batch.length && (batch.length >= BATCH_MAX_FILES || batchBytes + item.size > BATCH_MAX_BYTES)) {
      queue.push({ kind: "batch", ids: batch });
      batch = [];
      batchBytes = 0;
    }
    batch.push(item.id);
    batchBytes += item.size;
  }
  if (batch.length) queue.push({ kind: "batch", ids: batch });
  pump();
}

function pump(): void {
  while (active < FILE_SLOTS && queue.length) {
    const job = queue.shift() as Job;
    const controller = new AbortController();
    running.add(controller);
    if (job.kind === "file") fileControllers.set(job.id, controller);
    else batchJobs.set(controller, job.ids);
    active++;
    const work = job.kind === "file" ? sendFile(job.id, controller.signal) : sendBatch(job.ids, controller.signal);
    void work.finally(() => {
      running.delete(controller);
      if (job.kind === "file" && fileControllers.get(job.id) === controller) fileControllers.delete(job.id);
      batchJobs.delete(controller);
      active--;
      pump();
    });
  }
}

function fail(ids: readonly string[], error: unknown): void {
  if (isAbort(error)) return;
  const message = messageOf(error);
  const planLimit = error instanceof UploadError && error.status === 402;
  uploadStore.patchMany(new Map(ids.map((id) => [id, { status: "error" as const, error: message, planLimit }])));
}

async function sendFile(id: string, signal: AbortSignal): Promise<void> {
  const item = uploadStore.get(id);
  if (!item) return;
  uploadStore.patch(id, { started: true });
  // The start the server answered and that has not completed: given up on the server when this file
  // is skipped, replaced, cancelled or fails, so no asset or version stays `uploading` behind it.
  let pending: { upload_id: string; key: string } | null = null;
  const giveUp = (workspaceId: string) => {
    if (pending) void abortUpload(workspaceId, pending);
    pending = null;
  };
  try {
    const workspaceId = item.workspaceId;
    if (!workspaceId) throw new UploadError(UPLOAD_MESSAGES.noWorkspace);
    const body: UploadInitBody = {
      name: item.name,
      size: item.size,
      content_type: item.file.type || undefined,
      board_id: item.boardId,
    };
    const start = async (versionOf: string | null, sha256: string | null) => {
      const answer = await initUpload(
        workspaceId,
        { ...body, ...(versionOf ? { version_of: versionOf } : {}), ...(sha256 ? { sha256 } : {}) },
        signal,
      );
      pending = { upload_id: answer.upload_id, key: answer.key };
      return answer;
    };
    // A new asset asks whether its bytes are here already; a new version is meant as what it is.
    const sha256 = item.versionOf ? null : await sha256Of(item.file, signal);
    let info = await start(item.versionOf?.assetId ?? null, sha256);
    if (info.duplicates?.length) {
      const choice = await askDuplicate(id, info.duplicates, signal);
      // Skip, or a version instead: this start's asset is given up on the server.
      if (choice.kind === "skip") {
        giveUp(workspaceId);
        return uploadStore.remove([id]);
      }
      if (choice.kind === "version") {
        giveUp(workspaceId);
        uploadStore.patch(id, { versionOf: { assetId: choice.of.asset_id, name: choice.of.name } });
        info = await start(choice.of.asset_id, null);
      }
    }
    if (info.version_id)
      uploadStore.patch(id, { versionId: info.version_id, versionNumber: info.version_number ?? null });
    const report = (loaded: number) => uploadStore.patch(id, { loaded }, true);
    const parts = info.direct_url
      ? [{ part_number: 1, etag: await putBytes(info.direct_url, item.file, report, signal) }]
      : await sendParts(item.file, info.parts ?? [], report, signal);
    // A direct PUT already finished the upload; completing again is idempotent and confirms it.
    // A failed complete leaves the asset `uploading`: a transient failure (5xx, network) is tried again.
    const done = { upload_id: info.upload_id, key: info.key, parts };
    for (let attempt = 1; ; attempt++) {
      try {
        await completeUpload(workspaceId, done, signal);
        pending = null;
        break;
      } catch (error) {
        if (!(error instanceof UploadError && error.transient && attempt < PART_TRIES)) throw error;
        await wait(RETRY_BASE_MS * 3 ** (attempt - 1), signal);
      }
    }
    uploadStore.patch(id, { status: "processing", loaded: item.size, assetId: info.asset_id });
    // A new version: the asset now says a newer one is processing (the viewer's version menu shows it).
    if (info.version_id) invalidateAsset(workspaceId, info.asset_id);
    startPolling();
  } catch (error) {
    // Not when every upload stopped for another user's sign-in (the list is gone): not theirs to give up.
    if (item.workspaceId && uploadStore.get(id)) giveUp(item.workspaceId);
    fail([id], error);
  }
}

/**
 * One upload-folder request for files that came with relative paths. Upload progress is for the
 * whole body; the files go in order, so each item's share is read off the bytes sent so far.
 */
async function sendBatch(ids: readonly string[], signal: AbortSignal): Promise<void> {
  const items = ids.map((id) => uploadStore.get(id)).filter((item): item is UploadItem => !!item);
  if (items.length === 0) return;
  uploadStore.patchMany(new Map(items.map((item) => [item.id, { started: true }])));
  const first = items[0] as UploadItem;
  try {
    if (!first.workspaceId) throw new UploadError(UPLOAD_MESSAGES.noWorkspace);
    const bytes = items.reduce((sum, item) => sum + item.size, 0);
    const onProgress = (loaded: number, total: number) => {
      // The body also carries the form's boundaries and paths: scale to the files' own bytes.
      let left = total > 0 ? Math.min(1, loaded / total) * bytes : 0;
      const patches = new Map<string, Partial<UploadItem>>();
      for (const item of items) {
        const share = Math.min(item.size, left);
        left -= share;
        patches.set(item.id, { loaded: share });
      }
      uploadStore.patchMany(patches, true);
    };
    const answer = await uploadFolderBatch(
      first.workspaceId,
      first.boardId,
      items.map((item) => ({ file: item.file, path: item.path ?? item.name })),
      onProgress,
      signal,
    );
    // The server answers the assets in the order the files were sent.
    uploadStore.patchMany(
      new Map(
        items.map((item, i) => {
          const asset = answer.assets[i];
          const patch: Partial<UploadItem> = asset
            ? { status: "processing", loaded: item.size, assetId: asset.asset_id }
            : { status: "error", error: UPLOAD_MESSAGES.invalidInfo };
          return [item.id, patch];
        }),
      ),
    );
    invalidateBoards(first.workspaceId);
    startPolling();
  } catch (error) {
    fail(ids, error);
  }
}

whenOwnerChanges(stopAllUploads);
