import {
  type Asset,
  type CompleteUploadAnswer,
  FolderUploadAnswer,
  UPLOAD_MESSAGES,
  UploadInitAnswer,
  type UploadInitBody,
  uploadsApi,
  versionsApi,
} from "@hangar/contract";
import type { QueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { assetKeys, assetQuery } from "../../entities/asset";
import { workspaceKeys } from "../../entities/workspace";
import { answerIs, isText } from "../../lib/answer-check";
import { API_BASE, callApi, isApiError, routeUrl } from "../../lib/api-client";
import {
  csrfHeaders,
  failedAnswer,
  isCsrfFailure,
  isTransientStatus,
  UploadError,
  type XhrAnswer,
  xhrSend,
} from "./transport";

/**
 * The upload calls of spec 01 §7. Uploads are not queries: the runner drives them and keeps their
 * state in the upload store. What they change on the server is announced to TanStack Query here.
 */
/** The API client's own text when an answer had no detail: left out of "Upload failed: {status} {detail}". */
const GENERIC_DETAIL = /^Request failed \(\d+\)$/;

function uploadFailure(error: unknown): unknown {
  if (!isApiError(error)) return error;
  if (error.status === 0) return new UploadError(UPLOAD_MESSAGES.failed("Network error"), { transient: true });
  const detail = GENERIC_DETAIL.test(error.detail) ? "" : error.detail;
  return new UploadError(UPLOAD_MESSAGES.failed(error.status, detail), {
    status: error.status,
    transient: isTransientStatus(error.status),
  });
}

/** Announces a file; answers a direct URL (≤ 5 MiB) or the signed part URLs. */
export async function initUpload(workspaceId: string, body: UploadInitBody, signal?: AbortSignal) {
  let answer: unknown;
  try {
    answer = await callApi(uploadsApi.init, { params: { id: workspaceId }, body, signal });
  } catch (error) {
    throw uploadFailure(error);
  }
  const valid = answerIs(UploadInitAnswer, answer, (a) => isText(a.asset_id) && isText(a.upload_id) && isText(a.key));
  const info = answer as z.infer<typeof UploadInitAnswer>;
  if (!valid || (!info.direct_url && !info.parts?.length)) throw new UploadError(UPLOAD_MESSAGES.invalidInfo);
  return info;
}

export async function completeUpload(
  workspaceId: string,
  body: { upload_id: string; key: string; parts: Array<{ part_number: number; etag: string }> },
  signal?: AbortSignal,
): Promise<ReturnType<typeof CompleteUploadAnswer.parse>> {
  try {
    return await callApi(uploadsApi.complete, { params: { id: workspaceId }, body, signal });
  } catch (error) {
    throw uploadFailure(error);
  }
}

/**
 * Gives up a started upload on the server (Skip, Cancel, a failed send): its asset, or its new
 * version, goes at once with the bytes sent so far. Best effort: one that completed meanwhile (409) or
 * a failed request leaves it to the server's daily cleanup, which is where it went before.
 */
export async function abortUpload(workspaceId: string, body: { upload_id: string; key: string }): Promise<void> {
  try {
    await callApi(uploadsApi.abort, { params: { id: workspaceId }, body });
  } catch {
    // nothing to tell the user: the file is off their list either way
  }
}

// One GET-asset request for the whole app: the assets feature's.
export { fetchAsset } from "../../entities/asset";
export { putBytes } from "./send-bytes";

export interface FolderFile {
  file: File;
  path: string;
}

/**
 * One upload-folder request: the file_paths[n] fields first, then the files in the same order, so the
 * server knows each file's path as its bytes arrive. Retries once on a stale CSRF token.
 */
export async function uploadFolderBatch(
  workspaceId: string,
  parentBoardId: string | null,
  files: readonly FolderFile[],
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<ReturnType<typeof FolderUploadAnswer.parse>> {
  const form = new FormData();
  if (parentBoardId) form.append("parent_board_id", parentBoardId);
  files.forEach((f, i) => {
    form.append(`file_paths[${i}]`, f.path);
  });
  for (const f of files) form.append("files", f.file, f.file.name);

  const send = async (fresh: boolean): Promise<XhrAnswer> =>
    xhrSend({
      method: "POST",
      url: `${API_BASE}${routeUrl(uploadsApi.folder, { id: workspaceId })}`,
      body: form,
      headers: { Accept: "application/json", ...(await csrfHeaders(fresh)) },
      onProgress,
      signal,
    });
  let answer = await send(false);
  if (isCsrfFailure(answer)) answer = await send(true);
  if (!answer.ok) throw failedAnswer(answer);
  if (!answerIs(FolderUploadAnswer, answer.body, (a) => Array.isArray(a.assets))) {
    throw new UploadError(UPLOAD_MESSAGES.invalidInfo);
  }
  return answer.body as z.infer<typeof FolderUploadAnswer>;
}

// The query client, bound by the mounted UploadsHost: the runner and the poller work outside React.
let queryClient: QueryClient | null = null;

export function bindQueryClient(client: QueryClient | null): void {
  queryClient = client;
}

/** An asset finished processing: every asset list of the workspace may now show it. */
export function invalidateAssets(workspaceId: string): void {
  queryClient?.invalidateQueries({ queryKey: workspaceKeys.assets(workspaceId) });
}

/** The poller fetched an asset: it joins the query cache (the one home of server state), keyed as the asset's GET. */
export function cacheAsset(workspaceId: string, asset: Asset): void {
  queryClient?.setQueryData(assetQuery(workspaceId, asset.id).queryKey, asset);
}

/** One asset changed (a new version started or finished): it, its versions, and the grids that show it. */
export function invalidateAsset(workspaceId: string, assetId: string): void {
  queryClient?.invalidateQueries({ queryKey: assetKeys.detail(workspaceId, assetId) });
}

/** A new version's state: its asset's versions, read again (the asset itself stays on its current version meanwhile). */
export async function fetchVersionStatus(workspaceId: string, assetId: string, versionId: string) {
  const versions = await callApi(versionsApi.list, { params: { id: workspaceId, assetId } });
  return versions.find((v) => v.id === versionId) ?? null;
}

/** A folder upload may have created boards: the tree (and board trails) under workspaceKeys.boards. */
export function invalidateBoards(workspaceId: string): void {
  queryClient?.invalidateQueries({ queryKey: workspaceKeys.boards(workspaceId) });
}
