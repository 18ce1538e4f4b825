import {
  COMMENT_MESSAGES,
  type Comment,
  type CommentPage,
  type CreateCommentBody,
  commentsApi,
  reviewLinkApi,
  sharedApi,
  type UpdateCommentBody,
} from "@hangar/contract";
import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useEffect } from "react";
import { assetKeys, invalidateAssetQueries } from "../../entities/asset";
import { ApiError, callApi } from "../../lib/api-client";
import type { Review } from "./review-context";

/** What the comment calls need of the review: the asset, and the link's token in a shared view. */
type Source = Pick<Review, "workspaceId" | "asset" | "shared"> & Partial<Pick<Review, "version" | "allVersions">>;

/** A visitor who cancelled the name dialog: nothing was sent, nothing to report. */
export const CANCELLED = "cancelled";
export const isCancelled = (error: unknown) => error instanceof ApiError && error.code === CANCELLED;

/** Comment queries of one asset: the top-level list (per board scope) and each thread's replies. */
export const commentKeys = {
  asset: (workspaceId: string, assetId: string) => ["comments", workspaceId, assetId] as const,
  /** `scope`: "shared" for a link's visitor, else the board scope; `which`: the version shown. */
  top: (workspaceId: string, assetId: string, scope: string, which: string) =>
    ["comments", workspaceId, assetId, "top", scope, which] as const,
  allTop: (workspaceId: string, assetId: string) => ["comments", workspaceId, assetId, "top"] as const,
  replies: (workspaceId: string, assetId: string, threadId: string) =>
    ["comments", workspaceId, assetId, "replies", threadId] as const,
  one: (workspaceId: string, assetId: string, commentId: string) =>
    ["comments", workspaceId, assetId, "one", commentId] as const,
};

/** "all" (every comment), "global" (made in All Assets & Files), or a board id. */
export type CommentScope = "all" | "global" | string;
const boardParam = (scope: CommentScope) => (scope === "all" ? undefined : scope === "global" ? "null" : scope);

/** The asset's top-level comments, oldest first, every page (threads are short lists; pages of 100). */
export function useTopComments(source: Source, scope: CommentScope) {
  const { workspaceId, shared } = source;
  const assetId = source.asset.id;
  // Issue 29: one version's threads (the shown one), or every version's.
  const versions = source.allVersions
    ? ({ all_versions: "true" } as const)
    : source.version
      ? { version_id: source.version.id }
      : {};
  const which = source.allVersions ? "all-versions" : (source.version?.id ?? "current");
  const top = useInfiniteQuery({
    queryKey: commentKeys.top(workspaceId, assetId, shared ? "shared" : scope, which),
    initialPageParam: null as string | null,
    // Visitors hear no event stream: their view refreshes on its own.
    refetchInterval: shared ? 15_000 : false,
    queryFn: ({ pageParam, signal }) =>
      shared?.via === "review"
        ? callApi(reviewLinkApi.comments, {
            params: { token: shared.token },
            query: { object_id: assetId },
            signal,
            fallback: COMMENT_MESSAGES.fetchFailed,
          })
        : shared
          ? callApi(sharedApi.comments, {
              params: { token: shared.token },
              query: { object_id: assetId, ...versions },
              signal,
              fallback: COMMENT_MESSAGES.fetchFailed,
            })
          : callApi(commentsApi.list, {
              params: { id: workspaceId },
              query: {
                content_type: "asset",
                object_id: assetId,
                board_id: boardParam(scope),
                ...versions,
                ...(pageParam ? { cursor: pageParam } : {}),
              },
              signal,
              fallback: COMMENT_MESSAGES.fetchFailed,
            }),
    getNextPageParam: (last: CommentPage) => last.next_cursor,
  });
  // Every thread, one page after another: the picture shows every annotation, not the first hundred
  // (a page that fails stops here; the drawer's "Show more comments" tries again).
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = top;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  return top;
}

/** One comment or reply of a member's workspace (a mention's link names it); null asks nothing. */
export function useOneComment(source: Source, commentId: string | null) {
  const { workspaceId } = source;
  return useQuery({
    queryKey: commentKeys.one(workspaceId, source.asset.id, commentId ?? ""),
    enabled: commentId !== null && source.shared === null,
    queryFn: ({ signal }) =>
      callApi(commentsApi.get, {
        params: { id: workspaceId, commentId: commentId! },
        signal,
        fallback: COMMENT_MESSAGES.fetchFailed,
      }),
    retry: false,
  });
}

/** Every reply of a thread, flat (fetched when the thread is expanded). */
export function useReplies(source: Source, threadId: string, enabled: boolean) {
  const { workspaceId, shared } = source;
  const assetId = source.asset.id;
  return useQuery({
    queryKey: commentKeys.replies(workspaceId, assetId, threadId),
    enabled,
    queryFn: async ({ signal }) => {
      const out: Comment[] = [];
      let cursor: string | null = null;
      if (shared)
        return (
          await callApi(shared.via === "review" ? reviewLinkApi.comments : sharedApi.comments, {
            params: { token: shared.token },
            query: { object_id: assetId, parent_id: threadId },
            signal,
            fallback: COMMENT_MESSAGES.repliesFailed,
          })
        ).results;
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

/**
 * A new thread shows at once in the lists it belongs to (its board context, its version, and only a
 * list whose last page is loaded, where it goes last), before the refetch that follows confirms it.
 */
export function addThread(queryClient: QueryClient, workspaceId: string, assetId: string, created: Comment) {
  if (created.parent_id !== null) return;
  const lists = queryClient.getQueriesData<InfiniteData<CommentPage>>({
    queryKey: commentKeys.allTop(workspaceId, assetId),
  });
  for (const [key, data] of lists) {
    const last = data?.pages[data.pages.length - 1];
    if (!data || !last || last.next_cursor) continue;
    const [, , , , scope, which] = key as ReturnType<typeof commentKeys.top>;
    const inScope =
      scope === "shared" ||
      scope === "all" ||
      (scope === "global" ? created.board_id === null : created.board_id === scope);
    const inVersion =
      which === "all-versions" || which === "current" || !created.version || created.version.id === which;
    if (!inScope || !inVersion || data.pages.some((p) => p.results.some((c) => c.id === created.id))) continue;
    queryClient.setQueryData<InfiniteData<CommentPage>>(key, {
      ...data,
      pages: [...data.pages.slice(0, -1), { ...last, results: [...last.results, created] }],
    });
  }
}

export function useCommentMutations(source: Source) {
  const { workspaceId, shared } = source;
  const assetId = source.asset.id;
  const queryClient = useQueryClient();
  const settle = () => invalidateComments(queryClient, workspaceId, assetId);
  const params = { id: workspaceId };
  return {
    create: useMutation({
      // `fallback`: the text shown when the server gives no detail ("Failed to post comment" for a
      // comment, "Failed to post reply" for a reply: spec 02 §8), not sent.
      mutationFn: async ({
        fallback = shared ? COMMENT_MESSAGES.postFailed : COMMENT_MESSAGES.createFailed,
        ...body
      }: Omit<CreateCommentBody, "content_type" | "object_id"> & { fallback?: string }) => {
        // A thread is made on the version shown (a reply takes its thread's on the server).
        const version = !body.parent_id && source.version ? { version_id: source.version.id } : {};
        if (!shared)
          return callApi(commentsApi.create, {
            params,
            body: { content_type: "asset", object_id: assetId, ...version, ...body },
            fallback,
          });
        // A visitor: named (or not) by what they chose to give; cancelling the dialog discards the comment.
        const who = await shared.identify();
        if (!who) throw new ApiError({ status: 0, detail: "Cancelled", code: CANCELLED });
        const { board_id: _board, mentions: _mentions, ...rest } = body;
        // An outside reviewer writes on the current version, named by the review.
        if (shared.via === "review") {
          const { version_id: _version, ...onCurrent } = rest;
          return callApi(reviewLinkApi.comment, {
            params: { token: shared.token },
            body: { ...onCurrent, object_id: assetId },
            fallback,
          });
        }
        return callApi(sharedApi.comment, {
          params: { token: shared.token },
          body: { ...rest, ...version, object_id: assetId, author_name: who.name, author_email: who.email },
          fallback,
        });
      },
      onSuccess: (created) => addThread(queryClient, workspaceId, assetId, created),
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
