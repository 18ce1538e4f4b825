import {
  type CreateFileRequestBody,
  type FileRequest,
  fileRequestsApi,
  REQUEST_VISIT_HEADER,
  requestUploadsApi,
  SHARE_PASSWORD_HEADER,
  type UpdateFileRequestBody,
} from "@hangar/contract";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callApi } from "../../lib/api-client";

export const requestKeys = {
  board: (workspaceId: string, boardId: string) => ["file-requests", workspaceId, boardId] as const,
  page: (token: string) => ["file-request-page", token] as const,
  workspace: (workspaceId: string) => ["file-requests", workspaceId] as const,
};

/** Every upload link of the workspace (ADMIN: Settings → Share links). */
export function useWorkspaceFileRequests(workspaceId: string) {
  return useQuery({
    queryKey: [...requestKeys.workspace(workspaceId), "all"],
    queryFn: ({ signal }) => callApi(fileRequestsApi.listAll, { params: { id: workspaceId }, signal }),
  });
}

/** A board's upload-only links (ADMIN and EDITOR). */
export function useFileRequests(workspaceId: string, boardId: string) {
  return useQuery({
    queryKey: requestKeys.board(workspaceId, boardId),
    queryFn: ({ signal }) => callApi(fileRequestsApi.list, { params: { id: workspaceId, boardId }, signal }),
  });
}

export function useFileRequestMutations(workspaceId: string, boardId: string) {
  const qc = useQueryClient();
  const key = requestKeys.board(workspaceId, boardId);
  const everyList = () => qc.invalidateQueries({ queryKey: [...requestKeys.workspace(workspaceId), "all"] });
  const put = (row: FileRequest) => {
    qc.setQueryData<FileRequest[]>(key, (list) =>
      list?.some((r) => r.id === row.id) ? list.map((r) => (r.id === row.id ? row : r)) : [row, ...(list ?? [])],
    );
    void everyList();
  };
  return {
    create: useMutation({
      mutationFn: (body: CreateFileRequestBody) =>
        callApi(fileRequestsApi.create, { params: { id: workspaceId, boardId }, body }),
      onSuccess: put,
    }),
    update: useMutation({
      mutationFn: ({ id, body }: { id: string; body: UpdateFileRequestBody }) =>
        callApi(fileRequestsApi.update, { params: { id: workspaceId, requestId: id }, body }),
      onSuccess: put,
    }),
    remove: useMutation({
      mutationFn: (id: string) => callApi(fileRequestsApi.remove, { params: { id: workspaceId, requestId: id } }),
      onSuccess: (_answer, id) => {
        qc.setQueryData<FileRequest[]>(key, (list) => list?.filter((r) => r.id !== id));
        void everyList();
      },
    }),
  };
}

/** What came through one link, with the names visitors gave (loaded when shown). */
export function useReceivedFiles(workspaceId: string, requestId: string, enabled: boolean) {
  return useQuery({
    queryKey: ["file-requests", workspaceId, "received", requestId],
    enabled,
    queryFn: ({ signal }) => callApi(fileRequestsApi.received, { params: { id: workspaceId, requestId }, signal }),
  });
}

/** The visitor's headers: the visit (always) and a password (while unlocking). */
export const visitHeaders = (visitId: string, password?: string | null) => ({
  [REQUEST_VISIT_HEADER]: visitId,
  ...(password ? { [SHARE_PASSWORD_HEADER]: password } : {}),
});

/** The public upload page's answer; `attempt` makes each submitted password a new try. */
export function useRequestPage(token: string, visitId: string, password: string | null, attempt: number) {
  return useQuery({
    queryKey: [...requestKeys.page(token), attempt],
    placeholderData: keepPreviousData,
    retry: false,
    refetchOnWindowFocus: false,
    queryFn: ({ signal }) =>
      callApi(requestUploadsApi.page, {
        params: { token },
        signal,
        headers: visitHeaders(visitId, password),
        fallback: "Failed to open the upload page",
      }),
  });
}

/** A random id per browser tab: the visit whose uploads the page lists. */
export function visitIdFor(token: string): string {
  const key = `hangar:request-visit:${token}`;
  let id = sessionStorage.getItem(key);
  if (!id) {
    id = randomUuid();
    sessionStorage.setItem(key, id);
  }
  return id;
}

/** A v4 UUID from getRandomValues (randomUUID needs https, and self-hosted servers may be plain http). */
function randomUuid(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
