import type { QueryClient } from "@tanstack/react-query";
import { workspaceKeys } from "../workspace";
import { assetKeys } from "./api";

/** Recently deleted, the workspace's deleted assets (spec 01 §2, issue #5): what restores and deletes change. */
export const trashKeys = {
  list: (workspaceId: string) => [...workspaceKeys.scope(workspaceId), "recently-deleted"] as const,
};

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
