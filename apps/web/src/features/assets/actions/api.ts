import { ASSET_MESSAGES, assetsApi, type TagMode, trashApi, versionsApi } from "@hangar/contract";
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { assetKeys, invalidateAssetQueries } from "../../../entities/asset";
import { boardKeys } from "../../../entities/board";
import { callApi, errorMessage } from "../../../lib/api-client";
import { notifyError, notifySuccess, notifySuccessWithAction } from "../../../lib/notify";

/**
 * The asset calls of spec 01 §7 that change assets (edit, tags, favourites, delete), each with its
 * catalogue notification (spec 01 §8) and the query invalidation it needs. Board membership (move, add,
 * remove) is the board-membership feature's.
 */

// One set of query keys, one single-asset query and one invalidation for every feature (entities/asset).

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

/** Sets the tag list of every asset given (`replace`, the default), or adds the tags to theirs (`add`). */
export function useSetTags(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, tags, mode = "replace" }: { ids: string[]; tags: string[]; mode?: TagMode }) =>
      callApi(assetsApi.setTags, {
        params: { id: workspaceId },
        body: { asset_ids: ids, tags, mode },
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

/**
 * Undo from a delete toast (here, and the Duplicates page's "keep one"): a plain function (the dialog
 * that deleted them is gone by then); the assets come back from Recently deleted.
 */
export async function undoDelete(queryClient: QueryClient, workspaceId: string, ids: string[]) {
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
    queryClient.invalidateQueries({ queryKey: boardKeys.tree(workspaceId), exact: true });
  }
}

/**
 * Stack as versions (issue 29): the other assets become versions of `keep` (ordered by upload time,
 * the newest current); they leave the grid as assets of their own. Refusals show the server's text.
 */
export function useStackVersions(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ keep, others }: { keep: string; others: string[] }) =>
      callApi(versionsApi.stack, {
        params: { id: workspaceId, assetId: keep },
        body: { asset_ids: others },
        fallback: "Failed to stack the assets",
      }),
    onSuccess: (asset, { others }) => notifySuccess(`${others.length + 1} assets stacked as versions of ${asset.name}`),
    onError: (error) => notifyError(errorMessage(error, "Failed to stack the assets")),
    onSettled: () => {
      invalidateAssetQueries(queryClient, workspaceId);
      queryClient.invalidateQueries({ queryKey: boardKeys.tree(workspaceId), exact: true });
    },
  });
}
