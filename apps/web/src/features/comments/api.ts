import {
  COMMENT_MESSAGES,
  type Comment,
  type CommentPage,
  type CreateCommentBody,
  commentsApi,
  type UpdateCommentBody,
} from "@hangar/contract";
import { type QueryClient, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callApi } from "../../lib/api-client";
import { invalidateAssetQueries } from "../assets/actions/api";
import { assetKeys } from "../assets/api";

/** Comment queries of one asset: the top-level list (per board scope) and each thread's replies. */
export const commentKeys = {
  asset: (workspaceId: string, assetId: string) => ["comments", workspaceId, assetId] as const,
  top: (workspaceId: string, assetId: string, scope: string) =>
    ["comments", workspaceId, assetId, "top", scope] as const,
  replies: (workspaceId: string, assetId: string, threadId: string) =>
    ["comments", workspaceId, assetId, "replies", threadId] as const,
};

/** "all" (every comment), "global" (made in All Assets & Files), or a board id. */
export type CommentScope = "all" | "global" | string;
const boardParam = (scope: CommentScope) => (scope === "all" ? undefined : scope === "global" ? "null" : scope);

/** The asset's top-level comments, oldest first, every page (threads are short lists; pages of 100). */
export function useTopComments(workspaceId: string, assetId: string, scope: CommentScope) {
  return useInfiniteQuery({
    queryKey: commentKeys.top(workspaceId, assetId, scope),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      callApi(commentsApi.list, {
        params: { id: workspaceId },
        query: {
          content_type: "asset",
          object_id: assetId,
          board_id: boardParam(scope),
          ...(pageParam ? { cursor: pageParam } : {}),
        },
        signal,
        fallback: COMMENT_MESSAGES.fetchFailed,
      }),
    getNextPageParam: (last: CommentPage) => last.next_cursor,
  });
}

/** Every reply of a thread, flat (fetched when the thread is expanded). */
export function useReplies(workspaceId: string, assetId: string, threadId: string, enabled: boolean) {
  return useQuery({
    queryKey: commentKeys.replies(workspaceId, assetId, threadId),
    enabled,
    queryFn: async ({ signal }) => {
      const out: Comment[] = [];
      let cursor: string | null = null;
      do {
        const page: CommentPage = await callApi(commentsApi.list, {
          params: { id: workspaceId },
          query: {
            content_type: "asset",
            object_id: assetId,
            parent_id: threadId,
            ...(cursor ? { cursor } : {}),
            limit: 500,
          },
          signal,
          fallback: COMMENT_MESSAGES.repliesFailed,
        });
        out.push(...page.results);
        cursor = page.next_cursor;
      } while (cursor);
      return out;
    },
  });
}

/** After any change: the asset's comment lists, and the asset (its open-thread count) and the grids. */
export function invalidateComments(queryClient: QueryClient, workspaceId: string, assetId: string) {
  void queryClient.invalidateQueries({ queryKey: commentKeys.asset(workspaceId, assetId) });
  void queryClient.invalidateQueries({ queryKey: assetKeys.detail(workspaceId, assetId) });
  invalidateAssetQueries(queryClient, workspaceId);
}

export function useCommentMutations(workspaceId: string, assetId: string) {
  const queryClient = useQueryClient();
  const settle = () => invalidateComments(queryClient, workspaceId, assetId);
  const params = { id: workspaceId };
  return {
    create: useMutation({
      mutationFn: (body: Omit<CreateCommentBody, "content_type" | "object_id">) =>
        callApi(commentsApi.create, {
          params,
          body: { content_type: "asset", object_id: assetId, ...body },
          fallback: COMMENT_MESSAGES.createFailed,
        }),
      onSettled: settle,
    }),
    update: useMutation({
      mutationFn: ({ id, ...body }: UpdateCommentBody & { id: string }) =>
        callApi(commentsApi.update, {
          params: { ...params, commentId: id },
          body,
          fallback: COMMENT_MESSAGES.updateFailedStore,
        }),
      onSettled: settle,
    }),
    remove: useMutation({
      mutationFn: (id: string) =>
        callApi(commentsApi.remove, {
          params: { ...params, commentId: id },
          fallback: COMMENT_MESSAGES.deleteFailedStore,
        }),
      onSettled: settle,
    }),
    resolve: useMutation({
      mutationFn: ({ id, resolved }: { id: string; resolved: boolean }) =>
        callApi(commentsApi.resolve, { params: { ...params, commentId: id }, body: { resolved } }),
      onSettled: settle,
    }),
  };
}
