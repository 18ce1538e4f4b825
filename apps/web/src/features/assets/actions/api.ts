import { ASSET_MESSAGES, assetsApi, boardsApi, trashApi } from "@hangar/contract";
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { callApi, errorMessage } from "../../../lib/api-client";
import { notifyError, notifySuccess, notifySuccessWithAction } from "../../../lib/notify";
import { boardKeys } from "../../boards";
import { trashKeys } from "../../trash";
import { workspaceKeys } from "../../workspaces";
import { assetKeys } from "../api";

/**
 * The asset calls of spec 01 §7 that change assets (edit, tags, favourites, move, delete, board
 * membership), each with its catalogue notification (spec 01 §8) and the query invalidation it needs.
 */

// One set of query keys and one single-asset query for the whole assets feature (see ../api).
export { assetKeys, assetQuery, useAsset } from "../api";

/**
 * Every cached listing and asset of the workspace may now be out of date (also the workspace-scoped
 * asset keys the uploads feature uses). `trash`: Recently deleted changed too.
 */
export function invalidateAssetQueries(queryClient: QueryClient, workspaceId: string, opts: { trash?: boolean } = {}) {
  queryClient.invalidateQueries({ queryKey: assetKeys.lists(workspaceId) });
  queryClient.invalidateQueries({ queryKey: assetKeys.details(workspaceId) });
  queryClient.invalidateQueries({ queryKey: workspaceKeys.assets(workspaceId) });
  if (opts.trash) queryClient.invalidateQueries({ queryKey: trashKeys.list(workspaceId) });
}

/** Edit name and/or description (PUT). */
export function useUpdateAsset(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name, description }: { id: string; name?: string; description?: string | null }) =>
      callApi(assetsApi.update, {
        params: { id: workspaceId, assetId: id },
        body: { name, description },
        fallback: ASSET_MESSAGES.renameFailed,
      }),
    onSuccess: (asset) => {
      queryClient.setQueryData(assetKeys.detail(workspaceId, asset.id), asset);
      notifySuccess(ASSET_MESSAGES.renamed);
    },
    onError: () => notifyError(ASSET_MESSAGES.renameFailed),
    onSettled: () => invalidateAssetQueries(queryClient, workspaceId),
  });
}

/** Sets the tag list of every asset given (the list replaces theirs). */
export function useSetTags(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, tags }: { ids: string[]; tags: string[] }) =>
      callApi(assetsApi.setTags, {
        params: { id: workspaceId },
        body: { asset_ids: ids, tags },
      }),
    onSuccess: (answer, { ids }) => notifySuccess(ASSET_MESSAGES.tagsUpdated(answer?.count ?? ids.length)),
    onError: (error) => notifyError(ASSET_MESSAGES.tagsFailed(errorMessage(error, "Network error"))),
    // Tag lists (filter suggestions) live under the listing prefix too.
    onSettled: () => invalidateAssetQueries(queryClient, workspaceId),
  });
}

/** The caller's own favourite flag on each asset (COMMENTER too). */
export function useSetFavorite(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, favorite }: { ids: string[]; favorite: boolean }) =>
      callApi(assetsApi.setFavorite, {
        params: { id: workspaceId },
        body: { asset_ids: ids, favorite },
      }),
    onSuccess: (_answer, { favorite }) => notifySuccess(favorite ? "Added to favourites" : "Removed from favourites"),
    onError: (error) => notifyError(errorMessage(error, "Failed to update favourites"), "Failed to update favourites"),
    onSettled: () => invalidateAssetQueries(queryClient, workspaceId),
  });
}

export interface MoveAssetsInput {
  ids: string[];
  /** null: the root level (out of every board). */
  destination: { id: string; name: string } | null;
}

/** Moves assets out of their boards into one board, or to the root. */
export function useMoveAssets(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, destination }: MoveAssetsInput) =>
      callApi(assetsApi.move, {
        params: { id: workspaceId },
        body: { asset_ids: ids, destination_id: destination?.id ?? "root", destination_type: "board" },
      }),
    onSuccess: (_answer, { destination }) =>
      notifySuccess(destination ? ASSET_MESSAGES.movedTo(destination.name) : ASSET_MESSAGES.itemsMoved),
    onError: (error, { ids }) =>
      notifyError(
        ids.length === 1
          ? ASSET_MESSAGES.moveToFailed
          : ASSET_MESSAGES.moveFailed(errorMessage(error, "Network error")),
      ),
    onSettled: () => {
      invalidateAssetQueries(queryClient, workspaceId);
      queryClient.invalidateQueries({ queryKey: boardKeys.tree(workspaceId), exact: true });
    },
  });
}

/** Adds assets to one more board (they stay where they are too). */
export function useAddToBoard(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, board }: { ids: string[]; board: { id: string; name: string } }) =>
      callApi(boardsApi.addAssets, {
        params: { id: workspaceId, boardId: board.id },
        body: { asset_ids: ids },
      }),
    onSuccess: (_answer, { board }) => notifySuccess(ASSET_MESSAGES.addedTo(board.name)),
    onError: () => notifyError(ASSET_MESSAGES.addFailed),
    onSettled: () => {
      invalidateAssetQueries(queryClient, workspaceId);
      queryClient.invalidateQueries({ queryKey: boardKeys.tree(workspaceId), exact: true });
    },
  });
}

export interface RemoveFromBoardInput {
  ids: string[];
  /** The current board; null gives "Unable to remove asset: missing board information". */
  boardId: string | null;
  /** The asset's name when there is one: "\"name\" removed from board". */
  name?: string;
}

/** Takes assets out of the current board (the assets themselves stay). */
export function useRemoveFromBoard(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ids, boardId }: RemoveFromBoardInput) => {
      if (!boardId) throw new Error(ASSET_MESSAGES.missingBoard);
      return callApi(boardsApi.removeAssets, {
        params: { id: workspaceId, boardId },
        body: { asset_ids: ids },
      });
    },
    onSuccess: (_answer, { ids, name }) =>
      notifySuccess(
        ids.length === 1 && name ? ASSET_MESSAGES.removedOne(name) : ASSET_MESSAGES.removedMany(ids.length),
      ),
    onError: (error, { boardId }) =>
      notifyError(
        boardId ? ASSET_MESSAGES.removeFailed(errorMessage(error, "Network error")) : ASSET_MESSAGES.missingBoard,
      ),
    onSettled: () => {
      invalidateAssetQueries(queryClient, workspaceId);
      queryClient.invalidateQueries({ queryKey: boardKeys.tree(workspaceId), exact: true });
    },
  });
}

/** Soft delete (to Recently deleted); the toast offers Undo, which restores them. */
export function useDeleteAssets(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids }: { ids: string[] }) =>
      callApi(assetsApi.remove, { params: { id: workspaceId }, body: { asset_ids: ids } }),
    onSuccess: (answer, { ids }) => {
      if ((answer?.count ?? ids.length) < ids.length) return notifyError(ASSET_MESSAGES.deleteSomeFailed);
      notifySuccessWithAction(ids.length === 1 ? ASSET_MESSAGES.deleted : ASSET_MESSAGES.itemsDeleted, {
        label: "Undo",
        onClick: () => void undoDelete(queryClient, workspaceId, ids),
      });
    },
    onError: (error, { ids }) =>
      notifyError(
        ids.length === 1
          ? ASSET_MESSAGES.deleteOneFailed
          : ASSET_MESSAGES.deleteFailed(errorMessage(error, "Network error")),
      ),
    onSettled: () => {
      invalidateAssetQueries(queryClient, workspaceId, { trash: true });
      queryClient.invalidateQueries({ queryKey: boardKeys.tree(workspaceId), exact: true });
    },
  });
}

/** Undo from the delete toast: a plain function (the dialog that deleted them is gone by then). */
async function undoDelete(queryClient: QueryClient, workspaceId: string, ids: string[]) {
  try {
    await callApi(trashApi.restore, {
      params: { id: workspaceId },
      body: { asset_ids: ids, board_ids: [] },
      fallback: "Failed to restore items",
    });
    notifySuccess(ids.length === 1 ? "Asset restored" : `${ids.length} assets restored`);
  } catch (error) {
    notifyError(errorMessage(error, "Failed to restore items"));
  } finally {
    invalidateAssetQueries(queryClient, workspaceId, { trash: true });
  }
}
