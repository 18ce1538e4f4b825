import { type DuplicateGroup, similarApi } from "@hangar/contract";
import { keepPreviousData, type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { assetKeys, invalidateAssetQueries } from "../../entities/asset";
import { boardKeys } from "../../entities/board";
import { callApi, errorMessage } from "../../lib/api-client";
import { notifyError, notifySuccess, notifySuccessWithAction } from "../../lib/notify";
import { undoDelete } from "../assets";

/**
 * The duplicates review (issue 32; semantics in @hangar/contract similar.ts): the groups a page at a
 * time, and a group's three actions. The groups live under the assets' key prefix, so any change to
 * assets (an upload, a delete, a restore) lists them again.
 */
export const DUPLICATE_MESSAGES = {
  loadFailed: "Failed to load duplicates",
  kept: (n: number) =>
    n === 1 ? "1 duplicate moved to Recently deleted" : `${n} duplicates moved to Recently deleted`,
  keepFailed: "Failed to remove the duplicates",
  stacked: (n: number, name: string) => `${n} assets stacked as versions of ${name}`,
  stackFailed: "Failed to stack the assets",
  dismissed: "Group dismissed",
  dismissFailed: "Failed to dismiss the group",
  settingsSaved: "Near-duplicate distance saved",
  settingsFailed: "Failed to save the near-duplicate distance",
} as const;

export const DUPLICATES_PAGE_SIZE = 10;

export function useDuplicates(workspaceId: string, page: number) {
  return useQuery({
    queryKey: [...assetKeys.duplicates(workspaceId), page] as const,
    queryFn: ({ signal }) =>
      callApi(similarApi.duplicates, {
        params: { id: workspaceId },
        query: { page, page_size: DUPLICATES_PAGE_SIZE },
        signal,
        fallback: DUPLICATE_MESSAGES.loadFailed,
      }),
    // A new page keeps the last one on screen until it arrives (no skeleton flash between pages).
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

function refresh(queryClient: QueryClient, workspaceId: string) {
  invalidateAssetQueries(queryClient, workspaceId, { trash: true });
  queryClient.invalidateQueries({ queryKey: boardKeys.tree(workspaceId), exact: true });
}

export type GroupAction = "keep" | "stack" | "dismiss";

/** One mutation for the three actions: the page shows which group and which action is pending. */
export function useResolveGroup(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, group, keepId }: { action: GroupAction; group: DuplicateGroup; keepId: string }) => {
      const params = { id: workspaceId };
      if (action === "dismiss")
        return callApi(similarApi.dismiss, {
          params,
          body: { asset_ids: group.asset_ids },
          fallback: DUPLICATE_MESSAGES.dismissFailed,
        });
      const body = { asset_ids: group.asset_ids, keep_id: keepId };
      return action === "keep"
        ? callApi(similarApi.keep, { params, body, fallback: DUPLICATE_MESSAGES.keepFailed })
        : callApi(similarApi.stack, { params, body, fallback: DUPLICATE_MESSAGES.stackFailed });
    },
    onSuccess: (_answer, { action, group, keepId }) => {
      const others = group.asset_ids.filter((id) => id !== keepId);
      if (action === "dismiss") notifySuccess(DUPLICATE_MESSAGES.dismissed);
      else if (action === "stack") {
        const name = group.assets.find((a) => a.id === keepId)?.name ?? "the asset kept";
        notifySuccess(DUPLICATE_MESSAGES.stacked(group.asset_ids.length, name));
      } else
        notifySuccessWithAction(DUPLICATE_MESSAGES.kept(others.length), {
          label: "Undo",
          onClick: () => void undoDelete(queryClient, workspaceId, others),
        });
    },
    onError: (error, { action }) => {
      const fallback =
        action === "keep"
          ? DUPLICATE_MESSAGES.keepFailed
          : action === "stack"
            ? DUPLICATE_MESSAGES.stackFailed
            : DUPLICATE_MESSAGES.dismissFailed;
      notifyError(errorMessage(error, fallback), fallback);
    },
    onSettled: () => refresh(queryClient, workspaceId),
  });
}

/** The workspace's near-duplicate distance (ADMIN). */
export function useSetDuplicateDistance(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (maxDistance: number) =>
      callApi(similarApi.settings, {
        params: { id: workspaceId },
        body: { max_distance: maxDistance },
        fallback: DUPLICATE_MESSAGES.settingsFailed,
      }),
    onSuccess: () => notifySuccess(DUPLICATE_MESSAGES.settingsSaved),
    onError: (error) => notifyError(errorMessage(error, DUPLICATE_MESSAGES.settingsFailed)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: assetKeys.duplicates(workspaceId) }),
  });
}
