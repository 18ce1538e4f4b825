import { ASSET_MESSAGES, assetsApi, boardsApi } from "@hangar/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { invalidateAssetQueries } from "../../entities/asset";
import { boardKeys } from "../../entities/board";
import { callApi, errorMessage, isApiError } from "../../lib/api-client";

/** A smart board refuses filing with its own text (409, issue 33): shown as the server says it. */
const conflictText = (error: unknown) => (isApiError(error) && error.status === 409 ? error.detail : null);

import { notifyError, notifySuccess } from "../../lib/notify";

/**
 * An asset's boards (spec 01 §7): move to one board or to the root, add to one more, remove from the
 * current one; each with its catalogue notification (spec 01 §8) and the invalidation it needs.
 */

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
        conflictText(error) ??
          (ids.length === 1
            ? ASSET_MESSAGES.moveToFailed
            : ASSET_MESSAGES.moveFailed(errorMessage(error, "Network error"))),
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
    onError: (error) => notifyError(conflictText(error) ?? ASSET_MESSAGES.addFailed),
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
