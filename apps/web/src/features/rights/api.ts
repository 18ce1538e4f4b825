import { type BulkRightsBody, type RightsBody, rightsApi } from "@hangar/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { invalidateAssetQueries } from "../../entities/asset";
import { callApi } from "../../lib/api-client";

/**
 * Usage rights (issue 33): an asset's as a whole, or some keys of many. The rights ride in every
 * asset answer (`rights`, `rights_status`), so a save invalidates the asset queries it changes.
 */
export function useSaveRights(workspaceId: string, assetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RightsBody) => callApi(rightsApi.put, { params: { id: workspaceId, assetId }, body }),
    onSettled: () => invalidateAssetQueries(queryClient, workspaceId),
  });
}

export function useBulkRights(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkRightsBody) => callApi(rightsApi.bulk, { params: { id: workspaceId }, body }),
    onSettled: () => invalidateAssetQueries(queryClient, workspaceId),
  });
}
