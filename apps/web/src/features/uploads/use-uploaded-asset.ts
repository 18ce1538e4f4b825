import type { Asset } from "@hangar/contract";
import { useQuery } from "@tanstack/react-query";
import { assetQuery } from "../../entities/asset";
import type { UploadItem } from "./upload-store";

/**
 * The asset an upload became, for its thumbnail in the dialog: read from the query cache, where the
 * poller put it when processing ended. Only then does the row show it (as before); if the cache let
 * a completed one go meanwhile (the dialog stayed closed past gcTime), it is fetched once again.
 */
export function useUploadedAsset(item: UploadItem): Asset | null {
  const done = item.status === "COMPLETED" || item.status === "error";
  const workspaceId = item.workspaceId ?? "";
  const assetId = item.assetId ?? "";
  const query = useQuery({
    ...assetQuery(workspaceId, assetId),
    // Refetched only for a completed upload: a failed one shows what the poller saw, if anything.
    enabled: item.status === "COMPLETED" && !!item.workspaceId && !!item.assetId,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return done ? (query.data ?? null) : null;
}
