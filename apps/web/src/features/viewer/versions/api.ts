import { type AssetVersion, trashApi, versionsApi } from "@hangar/contract";
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { assetKeys, invalidateAssetQueries } from "../../../entities/asset";
import { versionLabel } from "../../../entities/version";
import { callApi, errorMessage } from "../../../lib/api-client";
import { notifyError, notifySuccess, notifySuccessWithAction } from "../../../lib/notify";

/**
 * The version menu's changes (issue 29): make current, delete (to Recently deleted, with Undo) and
 * detach. Each answers the asset, which replaces the cached one at once; the grids, the asset's
 * versions and Recently deleted are refetched after. Refusals show the server's text.
 */
export function useVersionActions(workspaceId: string, assetId: string) {
  const queryClient = useQueryClient();
  const params = (v: AssetVersion) => ({ id: workspaceId, assetId, versionId: v.id });
  const settle = () => invalidateAssetQueries(queryClient, workspaceId, { trash: true });
  const keep = (asset: Parameters<typeof queryClient.setQueryData>[1]) =>
    queryClient.setQueryData(assetKeys.detail(workspaceId, assetId), asset);
  return {
    makeCurrent: useMutation({
      mutationFn: (v: AssetVersion) =>
        callApi(versionsApi.makeCurrent, { params: params(v), fallback: "Failed to make the version current" }),
      onSuccess: (asset, v) => {
        keep(asset);
        notifySuccess(`${versionLabel(v.number)} is now the current version`);
      },
      onError: (error) => notifyError(errorMessage(error, "Failed to make the version current")),
      onSettled: settle,
    }),
    remove: useMutation({
      mutationFn: (v: AssetVersion) =>
        callApi(versionsApi.remove, { params: params(v), fallback: "Failed to delete the version" }),
      onSuccess: (asset, v) => {
        keep(asset);
        notifySuccessWithAction(`${versionLabel(v.number)} moved to Recently deleted`, {
          label: "Undo",
          onClick: () => void restoreVersion(queryClient, workspaceId, v),
        });
      },
      onError: (error) => notifyError(errorMessage(error, "Failed to delete the version")),
      onSettled: settle,
    }),
    detach: useMutation({
      mutationFn: (v: AssetVersion) =>
        callApi(versionsApi.detach, { params: params(v), fallback: "Failed to detach the version" }),
      onSuccess: (created, v) => notifySuccess(`${versionLabel(v.number)} is now an asset of its own: ${created.name}`),
      onError: (error) => notifyError(errorMessage(error, "Failed to detach the version")),
      onSettled: settle,
    }),
  };
}

/** Undo from the delete toast: the version back from Recently deleted. */
async function restoreVersion(queryClient: QueryClient, workspaceId: string, v: AssetVersion) {
  try {
    await callApi(trashApi.restore, {
      params: { id: workspaceId },
      body: { version_ids: [v.id] },
      fallback: "Failed to restore the version",
    });
    notifySuccess(`${versionLabel(v.number)} restored`);
  } catch (error) {
    notifyError(errorMessage(error, "Failed to restore the version"));
  } finally {
    invalidateAssetQueries(queryClient, workspaceId, { trash: true });
  }
}
