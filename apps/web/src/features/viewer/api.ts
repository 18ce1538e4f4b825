import { assetsApi } from "@hangar/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { assetKeys, invalidateAssetQueries } from "../../entities/asset";
import { callApi } from "../../lib/api-client";

/**
 * The viewer's quiet saves (spec 02 §5, §8): name and description autosave, tags on change. Their
 * failures are only logged; the field shows the server's value again (the caller reverts).
 */
export function useAutosaveAsset(workspaceId: string, assetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: { name?: string; description?: string | null }) =>
      callApi(assetsApi.update, { params: { id: workspaceId, assetId }, body: patch }),
    onSuccess: (asset) => queryClient.setQueryData(assetKeys.detail(workspaceId, asset.id), asset),
    onError: (error) => console.warn("Asset update failed", error),
    onSettled: () => invalidateAssetQueries(queryClient, workspaceId),
  });
}

export function useSaveTags(workspaceId: string, assetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tags: string[]) =>
      callApi(assetsApi.setTags, { params: { id: workspaceId }, body: { asset_ids: [assetId], tags } }),
    onError: (error) => console.warn("Tag update failed", error),
    onSettled: () => {
      invalidateAssetQueries(queryClient, workspaceId);
      queryClient.invalidateQueries({ queryKey: assetKeys.tags(workspaceId) });
    },
  });
}
