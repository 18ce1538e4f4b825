import {
  type Asset,
  type AssetListAnswer,
  assetsApi,
  type ListingOrder,
  type ListingPagination,
  STORE_MESSAGES,
} from "@hangar/contract";
import {
  type InfiniteData,
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { ApiError, callApi, isApiError } from "../../lib/api-client";
import { workspaceKeys } from "../workspace";
import { type AssetFilters, listingBody } from "./filter-model";

/**
 * Query keys. Lists and tag lists sit under ["assets", workspaceId] — the prefix every asset action
 * (tag, favourite, move, delete) and a finished upload invalidate; one asset is ["asset", ws, id].
 */
export const assetKeys = {
  all: (workspaceId: string) => workspaceKeys.assets(workspaceId),
  lists: (workspaceId: string) => [...workspaceKeys.assets(workspaceId), "list"] as const,
  list: (workspaceId: string, view: AssetListView) => [...workspaceKeys.assets(workspaceId), "list", view] as const,
  tags: (workspaceId: string) => [...workspaceKeys.assets(workspaceId), "tags"] as const,
  aiTags: (workspaceId: string) => [...workspaceKeys.assets(workspaceId), "ai-tags"] as const,
  /** The duplicates review (issue 32): under the prefix, so every change to assets refreshes it. */
  duplicates: (workspaceId: string) => [...workspaceKeys.assets(workspaceId), "duplicates"] as const,
  details: (workspaceId: string) => workspaceKeys.asset(workspaceId),
  detail: (workspaceId: string, assetId: string) => [...workspaceKeys.asset(workspaceId), assetId] as const,
};

/** What one grid shows; its pages are fetched one by one as the grid scrolls. */
export interface AssetListView {
  boardId: string | null;
  search: string;
  order: ListingOrder;
  filters: AssetFilters;
}

const invalidAnswer = () =>
  new ApiError({ status: 200, detail: STORE_MESSAGES.invalidResponse, code: "INVALID_RESPONSE" });

/**
 * Spec 01 §7: the answer is {data, pagination}, or a plain array, or {assets}; the last two carry no
 * paging, so they are one complete page.
 */
export function normaliseListAnswer(answer: unknown, page: number): AssetListAnswer {
  const whole = (data: Asset[]): AssetListAnswer => {
    const pagination: ListingPagination = {
      page,
      page_size: data.length,
      total_count: data.length,
      total_pages: 1,
      has_more: false,
      count_is_estimate: false,
      next_cursor: null,
    };
    return { data, pagination };
  };
  if (Array.isArray(answer)) return whole(answer as Asset[]);
  if (answer && typeof answer === "object") {
    const record = answer as Record<string, unknown>;
    if (Array.isArray(record.data) && record.pagination && typeof record.pagination === "object") {
      return answer as AssetListAnswer;
    }
    if (Array.isArray(record.assets)) return whole(record.assets as Asset[]);
  }
  throw invalidAnswer();
}

/** The grid's listing: page 1 first, then the next page while has_more says there is one. */
export function useAssetList(workspaceId: string, view: AssetListView) {
  return useInfiniteQuery({
    queryKey: assetKeys.list(workspaceId, view),
    queryFn: async ({ pageParam, signal }) =>
      normaliseListAnswer(
        await callApi(assetsApi.list, {
          params: { id: workspaceId },
          body: listingBody(view, pageParam),
          signal,
          fallback: STORE_MESSAGES.fetchAssets,
        }),
        pageParam,
      ),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pagination.has_more ? last.pagination.page + 1 : undefined),
    // While a new search or filter loads, the previous results stay (dimmed) instead of a blank grid.
    placeholderData: keepPreviousData,
    // No toast: the grid shows "Failed to fetch assets" inline with a Retry button.
  });
}

/** The asset, if some cached page of a list of this workspace holds it (instant preview). */
function cachedAsset(queryClient: QueryClient, workspaceId: string, assetId: string): Asset | undefined {
  const lists = queryClient.getQueriesData<InfiniteData<AssetListAnswer>>({ queryKey: assetKeys.lists(workspaceId) });
  for (const [, data] of lists) {
    for (const page of data?.pages ?? []) {
      const found = page.data.find((a) => a.id === assetId);
      if (found) return found;
    }
  }
  return undefined;
}

/** GET one asset: the single request behind `useAsset`, `assetQuery` and the processing poller. */
export function fetchAsset(workspaceId: string, assetId: string, signal?: AbortSignal, fallback?: string) {
  return callApi(assetsApi.get, { params: { id: workspaceId, assetId }, signal, fallback });
}

/** The one asset query (key and fetch), for hooks and for imperative `queryClient.fetchQuery`. */
export function assetQuery(workspaceId: string, assetId: string) {
  return queryOptions({
    queryKey: assetKeys.detail(workspaceId, assetId),
    queryFn: ({ signal }) => fetchAsset(workspaceId, assetId, signal, "Failed to fetch asset"),
  });
}

export function useAsset(workspaceId: string, assetId: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    ...assetQuery(workspaceId, assetId ?? ""),
    enabled: !!assetId,
    placeholderData: () => (assetId ? cachedAsset(queryClient, workspaceId, assetId) : undefined),
  });
}

export const isNotFound = (error: unknown) => isApiError(error) && [400, 404, 422].includes(error.status);

/** Manual tags of the workspace with their counts (the filter builder's suggestions). */
export function useWorkspaceTags(workspaceId: string, enabled = true) {
  return useQuery({
    queryKey: assetKeys.tags(workspaceId),
    queryFn: ({ signal }) => callApi(assetsApi.tags, { params: { id: workspaceId }, signal }),
    enabled,
    staleTime: 60_000,
  });
}

export function useWorkspaceAiTags(workspaceId: string, enabled = true) {
  return useQuery({
    queryKey: assetKeys.aiTags(workspaceId),
    queryFn: ({ signal }) => callApi(assetsApi.aiTags, { params: { id: workspaceId }, signal }),
    enabled,
    staleTime: 60_000,
  });
}

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
