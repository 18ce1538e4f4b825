import {
  type Asset,
  DOWNLOAD_MESSAGES,
  DOWNLOAD_MULTIPART_THRESHOLD,
  DOWNLOAD_PART_SIZE,
  type DownloadBody,
  downloadsApi,
} from "@hangar/contract";
import { useContext } from "react";
import { WorkspaceContext } from "../../entities/workspace";
import { callApi, isApiError } from "../../lib/api-client";
import { notifyError } from "../../lib/notify";
import { installDownloadProgress } from "./download-progress";
import { type DownloadKind, ZIP_RESET_DELAY_MS, zipFileName } from "./download-state";
import { downloadStore, useDownloadState } from "./download-store";
import {
  DownloadError,
  downloadParts,
  fetchFile,
  parseDownloadAnswer,
  saveBlob,
  triggerDownload,
} from "./download-transfer";

export interface ZipOptions {
  /** Default true (spec 01 §9). */
  includeSubboards?: boolean;
  /** Default false: folders per board, sub-boards nested. */
  flattenStructure?: boolean;
}

/**
 * What a single-asset download needs to know before asking (its size decides multipart);
 * `versionId`: one of its versions other than the current one (issue 29).
 */
export type AssetToDownload = Pick<Asset, "id" | "name" | "size"> & { versionId?: string };

const OUTER: Record<DownloadKind, string> = {
  asset: DOWNLOAD_MESSAGES.assetFailed,
  board: DOWNLOAD_MESSAGES.boardFailed,
  items: DOWNLOAD_MESSAGES.itemsFailed,
};

function failed(kind: DownloadKind, error: unknown) {
  // The cause goes to the console; the user gets the catalogue's text and the reason.
  console.error(OUTER[kind], error);
  const reason =
    error instanceof DownloadError || isApiError(error)
      ? error.message
      : error instanceof Error
        ? error.message
        : String(error);
  notifyError(reason, OUTER[kind]);
}

const requestDownload = (workspaceId: string, body: DownloadBody, kind: DownloadKind) =>
  callApi(downloadsApi.request, {
    params: { id: workspaceId },
    body,
    fallback: OUTER[kind],
  });

/** Single asset: a direct URL, or (above 5 MB) ranged parts joined into one file. */
export async function downloadAsset(workspaceId: string, asset: AssetToDownload): Promise<void> {
  if (downloadStore.getState().isDownloading) return;
  installDownloadProgress();
  downloadStore.dispatch({ type: "start", kind: "asset", label: asset.name });
  try {
    const useMultipart = asset.size > DOWNLOAD_MULTIPART_THRESHOLD;
    const answer = parseDownloadAnswer(
      await requestDownload(
        workspaceId,
        {
          asset_ids: [asset.id],
          use_multipart: useMultipart,
          part_size: DOWNLOAD_PART_SIZE,
          ...(asset.versionId ? { version_id: asset.versionId } : {}),
        },
        "asset",
      ),
    );
    if (answer.kind === "zip") throw new DownloadError(DOWNLOAD_MESSAGES.invalidResponse);
    const blob =
      answer.kind === "direct"
        ? await fetchFile(answer.url)
        : await downloadParts(answer.parts, answer.mimeType, {
            onPart: (done, total) => downloadStore.dispatch({ type: "part", done, total }),
          });
    saveBlob(blob, answer.filename);
    downloadStore.dispatch({ type: "triggered" });
  } catch (error) {
    failed("asset", error);
  } finally {
    // Spec 01 §4: the flag resets at the end of a single-asset download.
    downloadStore.dispatch({ type: "finished" });
  }
}

async function downloadZip(workspaceId: string, kind: DownloadKind, label: string, body: DownloadBody) {
  if (downloadStore.getState().isDownloading) return;
  installDownloadProgress();
  downloadStore.dispatch({ type: "start", kind, label });
  try {
    const answer = parseDownloadAnswer(await requestDownload(workspaceId, body, kind));
    if (answer.kind !== "zip") throw new DownloadError(DOWNLOAD_MESSAGES.invalidResponse);
    downloadStore.dispatch({ type: "answered" });
    triggerDownload(answer.url, zipFileName(answer.filename));
    downloadStore.dispatch({ type: "triggered" });
    // Spec 01 §4/§9: the flag resets 1 s after a board or unified download.
    setTimeout(() => downloadStore.dispatch({ type: "finished" }), ZIP_RESET_DELAY_MS);
  } catch (error) {
    failed(kind, error);
    downloadStore.dispatch({ type: "finished" });
  }
}

const zipFlags = (options: ZipOptions) => ({
  include_subboards: options.includeSubboards ?? true,
  flatten_structure: options.flattenStructure ?? false,
});

/** A board as one zip (its own assets at the zip's root, sub-boards as folders unless flattened). */
export function downloadBoard(
  workspaceId: string,
  board: { id: string; name?: string },
  options: ZipOptions = {},
): Promise<void> {
  return downloadZip(workspaceId, "board", board.name ?? "Board", { board_ids: [board.id], ...zipFlags(options) });
}

/**
 * Several assets and/or boards as one (unified) zip. One asset alone goes through downloadAsset
 * instead (callers with an asset at hand should call that: it keeps the original file).
 */
export function downloadItems(
  workspaceId: string,
  items: { assetIds?: string[]; boardIds?: string[] },
  options: ZipOptions = {},
): Promise<void> {
  const assetIds = items.assetIds ?? [];
  const boardIds = items.boardIds ?? [];
  const count = assetIds.length + boardIds.length;
  return downloadZip(workspaceId, "items", `${count} item${count === 1 ? "" : "s"}`, {
    asset_ids: assetIds,
    board_ids: boardIds,
    ...zipFlags(options),
  });
}

/**
 * The Download state and the three downloads, bound to a workspace (the current one by default):
 * `const { isDownloading, progress, downloadBoard } = useDownload(); downloadBoard({ id, name })`.
 */
export function useDownload(workspaceId?: string) {
  const current = useContext(WorkspaceContext);
  const state = useDownloadState();
  const ws = workspaceId ?? current?.id ?? "";
  return {
    isDownloading: state.isDownloading,
    progress: state.progress,
    downloadAsset: (asset: AssetToDownload) => downloadAsset(ws, asset),
    downloadBoard: (board: { id: string; name?: string } | string, options?: ZipOptions) =>
      downloadBoard(ws, typeof board === "string" ? { id: board } : board, options),
    downloadItems: (items: { assetIds?: string[]; boardIds?: string[] }, options?: ZipOptions) =>
      downloadItems(ws, items, options),
  };
}
