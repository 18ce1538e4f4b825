import { type Board, boardsApi, SMART_BOARD_MESSAGES, type SmartBoardFilter } from "@hangar/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { callApi, errorMessage } from "../../lib/api-client";
import { notifyError, notifySuccess } from "../../lib/notify";
import { workspaceKeys } from "../workspace";
import { boardKeys } from "./api";
import { insertInTree } from "./tree-utils";

/** A smart board (issue 33): a board whose content is a saved filter, shown live. */
export const isSmart = (board: Pick<Board, "kind"> | null | undefined) => board?.kind === "smart";

const refresh = (queryClient: ReturnType<typeof useQueryClient>, workspaceId: string) => {
  queryClient.invalidateQueries({ queryKey: boardKeys.tree(workspaceId), exact: true });
  queryClient.invalidateQueries({ queryKey: boardKeys.ancestorsAll(workspaceId) });
};

/** "Save as smart board": a new smart board holding `filter`, at the root or under a normal board. */
export function useCreateSmartBoard(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; parentId: string | null; filter: SmartBoardFilter }) =>
      callApi(boardsApi.create, {
        params: { id: workspaceId },
        body: { name: input.name, parent_id: input.parentId, kind: "smart", filter: input.filter },
        fallback: "Failed to save smart board",
      }),
    onSuccess: (board) => {
      const key = boardKeys.tree(workspaceId);
      const tree = queryClient.getQueryData<Board[]>(key);
      if (tree) queryClient.setQueryData<Board[]>(key, insertInTree(tree, board));
      refresh(queryClient, workspaceId);
      notifySuccess(SMART_BOARD_MESSAGES.saved);
    },
    // The dialog shows the server's text (a filter it cannot store names its field).
  });
}

/** "Edit filter": the smart board's saved filter replaced; its listing follows. */
export function useUpdateSmartFilter(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { boardId: string; filter: SmartBoardFilter }) =>
      callApi(boardsApi.update, {
        params: { id: workspaceId, boardId: input.boardId },
        body: { filter: input.filter },
        fallback: "Failed to update the smart board's filter",
      }),
    onSuccess: () => {
      refresh(queryClient, workspaceId);
      queryClient.invalidateQueries({ queryKey: workspaceKeys.assets(workspaceId) });
      notifySuccess(SMART_BOARD_MESSAGES.filterUpdated);
    },
    onError: (error) => notifyError(errorMessage(error, "Failed to update the smart board's filter")),
  });
}
