import { API_PREFIX, type AuditPage, type AuditQuery, type AuditSettings, auditApi } from "@hangar/contract";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { workspaceKeys } from "../../entities/workspace";
import { callApi, routeUrl } from "../../lib/api-client";
import { notifySuccess } from "../../lib/notify";

/** The log's filters as the page holds them (empty strings: no filter). */
export type AuditFilters = Pick<AuditQuery, "actor_kind" | "actor_id" | "action" | "from" | "to">;

export const auditKeys = {
  all: (workspaceId: string) => [...workspaceKeys.scope(workspaceId), "audit"] as const,
  log: (workspaceId: string, f: AuditFilters) => [...auditKeys.all(workspaceId), "log", f] as const,
  settings: (workspaceId: string) => [...auditKeys.all(workspaceId), "settings"] as const,
  history: (workspaceId: string, kind: "asset" | "board", id: string) =>
    [...auditKeys.all(workspaceId), kind, id] as const,
};

const clean = (f: AuditFilters) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== ""));

/** The workspace's audit log (ADMIN), newest first, page after page by cursor. */
export function useAuditLog(workspaceId: string, filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: auditKeys.log(workspaceId, filters),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }): Promise<AuditPage> =>
      callApi(auditApi.list, {
        params: { id: workspaceId },
        query: { ...clean(filters), limit: 50, ...(pageParam ? { cursor: pageParam } : {}) },
        signal,
        fallback: "Failed to fetch the audit log",
      }),
    getNextPageParam: (last) => last.next_cursor,
  });
}

/** The CSV of what the filters select (the browser downloads it with the session). */
export function auditExportUrl(workspaceId: string, filters: AuditFilters): string {
  const q = new URLSearchParams(clean(filters) as Record<string, string>).toString();
  return `${API_PREFIX}${routeUrl(auditApi.export, { id: workspaceId })}${q ? `?${q}` : ""}`;
}

/** One asset's or board's history (any member; no addresses), page after page. */
export function useObjectHistory(workspaceId: string, kind: "asset" | "board", id: string, enabled = true) {
  return useInfiniteQuery({
    enabled,
    queryKey: auditKeys.history(workspaceId, kind, id),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }): Promise<AuditPage> => {
      const query = { limit: 30, ...(pageParam ? { cursor: pageParam } : {}) };
      return kind === "asset"
        ? callApi(auditApi.assetHistory, {
            params: { id: workspaceId, assetId: id },
            query,
            signal,
            fallback: "Failed to fetch the history",
          })
        : callApi(auditApi.boardHistory, {
            params: { id: workspaceId, boardId: id },
            query,
            signal,
            fallback: "Failed to fetch the history",
          });
    },
    getNextPageParam: (last) => last.next_cursor,
  });
}

export function useAuditSettings(workspaceId: string) {
  return useQuery({
    queryKey: auditKeys.settings(workspaceId),
    queryFn: () =>
      callApi(auditApi.settings, { params: { id: workspaceId }, fallback: "Failed to fetch the audit settings" }),
  });
}

export function useSaveAuditSettings(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AuditSettings) =>
      callApi(auditApi.saveSettings, { params: { id: workspaceId }, body, fallback: "Failed to save the retention" }),
    onSuccess: (saved) => {
      queryClient.setQueryData(auditKeys.settings(workspaceId), saved);
      queryClient.invalidateQueries({ queryKey: [...auditKeys.all(workspaceId), "log"] });
      notifySuccess("Retention saved");
    },
  });
}
