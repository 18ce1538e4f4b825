import {
  ANONYMOUS_INFO_KEY,
  FIELD_MESSAGES,
  SHARE_MESSAGES,
  SHARE_PASSWORD_HEADER,
  SHARE_VISITOR_HEADER,
  type ShareContentType,
  type SharedFieldValueBody,
  sharedApi,
  sharesApi,
  type UpdateShareLinkBody,
} from "@hangar/contract";
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callApi } from "../../lib/api-client";

/** The content a link shares: an asset (in its board) or a board. */
export interface ShareTarget {
  workspaceId: string;
  type: ShareContentType;
  objectId: string;
  /** An asset's board: required for an asset ("board_id is required when sharing assets"). */
  boardId: string | null;
}

export const shareKeys = {
  link: (t: ShareTarget) => ["share-link", t.workspaceId, t.type, t.objectId, t.boardId] as const,
  workspace: (workspaceId: string) => ["share-links", workspaceId] as const,
  shared: (token: string) => ["shared", token] as const,
  payload: (token: string) => ["shared", token, "payload"] as const,
  board: (token: string, boardId: string | null) => ["shared", token, "board", boardId] as const,
  assets: (token: string, boardId: string | null) => ["shared", token, "assets", boardId] as const,
  asset: (token: string, assetId: string) => ["shared", token, "asset", assetId] as const,
  fields: (token: string, assetId: string) => ["shared", token, "fields", assetId] as const,
  text: (token: string, assetId: string) => ["shared", token, "recognised-text", assetId] as const,
  watermarkedVideo: (token: string, assetId: string) => ["shared", token, "watermarked-video", assetId] as const,
};

/**
 * The visitor's name or e-mail, as they gave it for comments (kept in this browser), for a watermark's
 * `{visitor}` (issue 33): sent URI-encoded with the calls whose answers carry media URLs.
 */
function visitorHeaders(): Record<string, string> | undefined {
  try {
    const raw = localStorage.getItem(ANONYMOUS_INFO_KEY);
    const info = raw ? (JSON.parse(raw) as { name?: unknown; email?: unknown }) : null;
    const who =
      typeof info?.name === "string" && info.name ? info.name : typeof info?.email === "string" ? info.email : "";
    return who ? { [SHARE_VISITOR_HEADER]: encodeURIComponent(who) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A watermarking link's video (issue 33): its watermarked copy's state, asked again every 1.5 s while
 * it is being made (the first ask starts it); the plain video is never offered meanwhile.
 */
export function useWatermarkedVideo(token: string, assetId: string, enabled: boolean) {
  return useQuery({
    queryKey: shareKeys.watermarkedVideo(token, assetId),
    enabled,
    queryFn: ({ signal }) =>
      callApi(sharedApi.watermarkedVideo, {
        params: { token, assetId },
        signal,
        headers: visitorHeaders(),
        fallback: SHARE_MESSAGES.accessFailed,
      }),
    refetchInterval: (q) => (q.state.data?.state === "preparing" ? 1_500 : false),
  });
}

const linkParams = (t: ShareTarget) => ({ id: t.workspaceId, contentType: t.type, objectId: t.objectId });

/** Gets (or creates, with the default flags) the link of the content. */
export const fetchShareLink = (target: ShareTarget) =>
  callApi(sharesApi.get, {
    params: linkParams(target),
    query: target.boardId ? { board_id: target.boardId } : {},
    fallback: SHARE_MESSAGES.getFailed,
  });

/** The content's link: the share dialog's first call. */
export function useShareLink(target: ShareTarget | null) {
  return useQuery({
    queryKey: target ? shareKeys.link(target) : ["share-link", "none"],
    enabled: !!target,
    retry: false,
    queryFn: () => fetchShareLink(target!),
  });
}

export function useShareLinkMutations(target: ShareTarget) {
  const queryClient = useQueryClient();
  const settle = () => {
    void queryClient.invalidateQueries({ queryKey: shareKeys.workspace(target.workspaceId) });
  };
  return {
    update: useMutation({
      mutationFn: (body: Omit<UpdateShareLinkBody, "board_id">) =>
        callApi(sharesApi.update, {
          params: linkParams(target),
          body: { ...body, ...(target.boardId ? { board_id: target.boardId } : {}) },
          fallback: SHARE_MESSAGES.updateFailed,
        }),
      onSuccess: (link) => queryClient.setQueryData(shareKeys.link(target), link),
      onSettled: settle,
    }),
    remove: useMutation({
      mutationFn: () =>
        callApi(sharesApi.remove, {
          params: linkParams(target),
          query: target.boardId ? { board_id: target.boardId } : {},
          fallback: SHARE_MESSAGES.deleteFailed,
        }),
      onSuccess: () => queryClient.removeQueries({ queryKey: shareKeys.link(target) }),
      onSettled: settle,
    }),
  };
}

/** Every link of a workspace (ADMIN's review page). */
export function useWorkspaceShareLinks(workspaceId: string) {
  return useQuery({
    queryKey: shareKeys.workspace(workspaceId),
    queryFn: () => callApi(sharesApi.listAll, { params: { id: workspaceId }, fallback: SHARE_MESSAGES.getFailed }),
  });
}

/**
 * The shared payload (spec 02 §7 GET /share/{token}). The password, when the visitor typed one, goes
 * in its header once; the server then keeps the unlock in a cookie scoped to this link, so later
 * calls carry nothing.
 */
export function useSharedPayload(token: string, password: string | null, attempt = 0) {
  return useQuery({
    queryKey: [...shareKeys.payload(token), attempt],
    placeholderData: keepPreviousData,
    retry: false,
    refetchOnWindowFocus: false,
    queryFn: ({ signal }) =>
      callApi(sharedApi.payload, {
        params: { token },
        signal,
        headers: { ...visitorHeaders(), ...(password ? { [SHARE_PASSWORD_HEADER]: password } : {}) },
        fallback: SHARE_MESSAGES.accessFailed,
      }),
  });
}

export function useSharedBoard(token: string, boardId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: shareKeys.board(token, boardId),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      callApi(sharedApi.board, {
        params: { token },
        query: boardId ? { board_id: boardId } : {},
        signal,
        fallback: SHARE_MESSAGES.accessFailed,
      }),
  });
}

export const SHARED_PAGE_SIZE = 60;

/** A shared board's assets, page after page as the visitor scrolls. */
export function useSharedAssets(token: string, boardId: string | null, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: shareKeys.assets(token, boardId),
    enabled,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      callApi(sharedApi.assets, {
        params: { token },
        query: { ...(boardId ? { board_id: boardId } : {}), page: pageParam, page_size: SHARED_PAGE_SIZE },
        signal,
        headers: visitorHeaders(),
        fallback: SHARE_MESSAGES.accessFailed,
      }),
    getNextPageParam: (last, _all, page) => (last.pagination.has_more ? page + 1 : undefined),
  });
}

export function useSharedAsset(token: string | null, assetId: string) {
  return useQuery({
    queryKey: shareKeys.asset(token ?? "", assetId),
    enabled: !!token,
    queryFn: ({ signal }) =>
      callApi(sharedApi.asset, {
        params: { token: token!, assetId },
        signal,
        headers: visitorHeaders(),
        fallback: SHARE_MESSAGES.accessFailed,
      }),
  });
}

/** A zip of a shared board (downloads allowed): the answer's signed URL starts the browser's download. */
export function useSharedBoardDownload(token: string) {
  return useMutation({
    mutationFn: (boardId: string | null) =>
      callApi(sharedApi.download, {
        params: { token },
        body: boardId ? { board_id: boardId } : {},
        fallback: SHARE_MESSAGES.downloadFailed,
      }),
  });
}

export function useSharedFields(token: string, assetId: string) {
  return useQuery({
    queryKey: shareKeys.fields(token, assetId),
    queryFn: ({ signal }) =>
      callApi(sharedApi.fields, { params: { token, assetId }, signal, fallback: FIELD_MESSAGES.fetchFailed }),
  });
}

/** What OCR read in a shared asset, through the link (asked again every 2 s while it is being read). */
export function useSharedRecognisedText(token: string, assetId: string) {
  return useQuery({
    queryKey: shareKeys.text(token, assetId),
    queryFn: ({ signal }) => callApi(sharedApi.recognisedText, { params: { token, assetId }, signal }),
    refetchInterval: (q) => (q.state.data?.status === "pending" ? 2_000 : false),
  });
}

export function useSetSharedField(token: string, assetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fieldId, body }: { fieldId: string; body: SharedFieldValueBody }) =>
      callApi(sharedApi.setField, {
        params: { token, fieldId },
        body: { ...body, asset_id: assetId },
        fallback: FIELD_MESSAGES.updateFailed,
      }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: shareKeys.fields(token, assetId) }),
  });
}
