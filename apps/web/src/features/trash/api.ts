import { type TrashList as TrashListSchema, trashApi } from "@hangar/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { trashKeys } from "../../entities/asset";
import { boardKeys } from "../../entities/board";
import { workspaceKeys } from "../../entities/workspace";
import { callApi, errorMessage } from "../../lib/api-client";
import { notifyError, notifySuccess } from "../../lib/notify";

export type TrashList = z.infer<typeof TrashListSchema>;
export type TrashItem = TrashList["assets"][number];

/** Recently deleted: the list, restore and delete forever (spec 01 §2, issue #5); its keys in entities/asset. */

export const TRASH_MESSAGES = {
  loadFailed: "Failed to load recently deleted items",
  restored: (n: number) => `${n} item(s) restored`,
  restoreFailed: "Failed to restore items",
  purged: (n: number) => `${n} item(s) deleted forever`,
  purgeFailed: "Failed to delete items forever",
} as const;

export function useTrash(workspaceId: string) {
  return useQuery({
    queryKey: trashKeys.list(workspaceId),
    queryFn: ({ signal }) =>
      callApi(trashApi.list, { params: { id: workspaceId }, signal, fallback: TRASH_MESSAGES.loadFailed }),
    // The page shows its own error state with Retry.
    staleTime: 0,
  });
}

export interface TrashSelection {
  assetIds: string[];
  boardIds: string[];
}

const count = (s: TrashSelection) => s.assetIds.length + s.boardIds.length;

function useTrashMutation(
  workspaceId: string,
  action: "restore" | "purge",
  texts: { ok: (n: number) => string; failed: string },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (selection: TrashSelection) =>
      callApi(trashApi[action], {
        params: { id: workspaceId },
        body: { asset_ids: selection.assetIds, board_ids: selection.boardIds },
        fallback: texts.failed,
      }),
    onSuccess: (_answer, selection) => notifySuccess(texts.ok(count(selection))),
    onError: (error) => notifyError(errorMessage(error, texts.failed), texts.failed),
    onSettled: () => {
      queryClient.invalidateQueries({ queryKey: trashKeys.list(workspaceId) });
      if (action === "restore") {
        // Restored assets show in listings again, restored boards in the tree.
        queryClient.invalidateQueries({ queryKey: ["assets", workspaceId] });
        queryClient.invalidateQueries({ queryKey: ["asset", workspaceId] });
        queryClient.invalidateQueries({ queryKey: workspaceKeys.assets(workspaceId) });
        queryClient.invalidateQueries({ queryKey: boardKeys.tree(workspaceId), exact: true });
        queryClient.invalidateQueries({ queryKey: boardKeys.ancestorsAll(workspaceId) });
      }
    },
  });
}

/** Puts items back: assets into their boards (or the root when those are gone), boards with their content. */
export function useRestoreTrash(workspaceId: string) {
  return useTrashMutation(workspaceId, "restore", {
    ok: TRASH_MESSAGES.restored,
    failed: TRASH_MESSAGES.restoreFailed,
  });
}

/** Deletes for good, bytes included. */
export function usePurgeTrash(workspaceId: string) {
  return useTrashMutation(workspaceId, "purge", { ok: TRASH_MESSAGES.purged, failed: TRASH_MESSAGES.purgeFailed });
}
