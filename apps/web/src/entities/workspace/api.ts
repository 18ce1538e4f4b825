import { STORE_MESSAGES, type Workspace, workspacesApi } from "@hangar/contract";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useNavigate } from "react-router-dom";
import { callApi, expectArray, isApiError } from "../../lib/api-client";
import { notifySuccess } from "../../lib/notify";
import { selectionStore } from "./selection-store";

/**
 * Query keys. Everything that lives inside one workspace (members, invites, boards, fields...) is keyed
 * under `workspaceKeys.scope(id)` so a workspace switch or delete can drop it at once. Assets are the
 * exception: lists (and tag lists) under `["assets", id]`, one asset under `["asset", id, assetId]`,
 * the prefixes every asset action invalidates; switch and delete drop those two prefixes as well.
 */
export const workspaceKeys = {
  all: ["workspaces"] as const,
  list: () => ["workspaces", "list"] as const,
  detail: (id: string) => ["workspaces", "detail", id] as const,
  scope: (id: string) => ["workspace", id] as const,
  assets: (id: string) => ["assets", id] as const,
  asset: (id: string) => ["asset", id] as const,
  boards: (id: string) => ["workspace", id, "boards"] as const,
};

export function useWorkspaces() {
  return useQuery({
    queryKey: workspaceKeys.list(),
    queryFn: async () => {
      const answer = await callApi(workspacesApi.list, { fallback: STORE_MESSAGES.fetchWorkspaces });
      return expectArray<Workspace>(answer, STORE_MESSAGES.invalidResponse);
    },
    meta: {
      // "Invalid response format from server" when the answer is not a list, else the store message.
      errorMessage: (error: unknown) =>
        isApiError(error) && error.code === "INVALID_RESPONSE" ? error.detail : STORE_MESSAGES.fetchWorkspaces,
    },
  });
}

export function useWorkspace(id: string | undefined) {
  return useQuery({
    queryKey: workspaceKeys.detail(id ?? ""),
    queryFn: () => callApi(workspacesApi.get, { params: { id: id ?? "" }, fallback: STORE_MESSAGES.fetchWorkspace }),
    enabled: !!id,
    meta: {
      // A missing workspace renders a not-found state in the shell instead of a toast.
      errorMessage: (error: unknown) => {
        if (isApiError(error) && [400, 404, 422].includes(error.status)) return null;
        return isApiError(error) ? error.detail : STORE_MESSAGES.fetchWorkspace;
      },
    },
  });
}

/** Puts a workspace the user just got (created, joined) into the cached list before the refetch lands. */
export function rememberWorkspace(queryClient: QueryClient, workspace: Workspace): void {
  queryClient.setQueryData(workspaceKeys.detail(workspace.id), workspace);
  queryClient.setQueryData<Workspace[]>(workspaceKeys.list(), (old) =>
    old ? [...old.filter((w) => w.id !== workspace.id), workspace] : old,
  );
  queryClient.invalidateQueries({ queryKey: workspaceKeys.list(), exact: true });
}

/**
 * The user lost a workspace (deleted it, left it). Drop it from the list, and mark what was cached for
 * it stale without refetching: the page still on screen would otherwise refetch, fail and flash an error
 * before the navigation away lands. Unobserved, it is garbage-collected later.
 */
export function forgetWorkspace(queryClient: QueryClient, id: string): void {
  queryClient.setQueryData<Workspace[]>(workspaceKeys.list(), (old) => old?.filter((w) => w.id !== id));
  queryClient.invalidateQueries({ queryKey: workspaceKeys.list(), exact: true });
  queryClient.invalidateQueries({ queryKey: workspaceKeys.detail(id), exact: true, refetchType: "none" });
  queryClient.invalidateQueries({ queryKey: workspaceKeys.scope(id), refetchType: "none" });
  queryClient.invalidateQueries({ queryKey: workspaceKeys.assets(id), refetchType: "none" });
  queryClient.invalidateQueries({ queryKey: workspaceKeys.asset(id), refetchType: "none" });
}

/** Opening another workspace clears assets, selection and boards (spec 01 §4), then navigates to it. */
export function resetWorkspaceScope(queryClient: QueryClient, previousId: string | null): void {
  if (!previousId) return;
  queryClient.removeQueries({ queryKey: workspaceKeys.assets(previousId) });
  queryClient.removeQueries({ queryKey: workspaceKeys.asset(previousId) });
  queryClient.removeQueries({ queryKey: workspaceKeys.boards(previousId) });
}

/** Switches the current workspace; returns false when it already was the current one. */
export function switchWorkspace(queryClient: QueryClient, id: string): boolean {
  const previous = selectionStore.getState().workspaceId;
  const changed = selectionStore.setWorkspace(id);
  if (changed) {
    resetWorkspaceScope(queryClient, previous);
    queryClient.invalidateQueries({ queryKey: workspaceKeys.boards(id) });
  }
  return changed;
}

export function useSelectWorkspace() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    (id: string) => {
      switchWorkspace(queryClient, id);
      navigate(`/w/${id}`);
    },
    [queryClient, navigate],
  );
}

export function useCreateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      callApi(workspacesApi.create, { body: { name }, fallback: "Failed to create workspace" }),
    onSuccess: (workspace) => {
      rememberWorkspace(queryClient, workspace);
      notifySuccess("Workspace created");
    },
  });
}

export function useRenameWorkspace(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      callApi(workspacesApi.rename, {
        params: { id },
        body: { name },
        fallback: "Failed to rename workspace",
      }),
    onSuccess: (workspace) => {
      queryClient.setQueryData(workspaceKeys.detail(id), workspace);
      queryClient.invalidateQueries({ queryKey: workspaceKeys.list(), exact: true });
      notifySuccess("Workspace renamed");
    },
  });
}

export function useDeleteWorkspace(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(workspacesApi.remove, { params: { id }, fallback: "Failed to delete workspace" }),
    onSuccess: () => {
      forgetWorkspace(queryClient, id);
      notifySuccess("Workspace deleted");
    },
  });
}
