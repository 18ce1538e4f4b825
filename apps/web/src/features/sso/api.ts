import { ssoApi, type WorkspaceSso } from "@hangar/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { workspaceKeys } from "../../entities/workspace";
import { callApi } from "../../lib/api-client";
import { notifySuccess } from "../../lib/notify";

export const ssoKeys = {
  /** The server's sign-in options: the same for everyone, signed in or not. */
  options: () => ["sign-in-options"] as const,
  workspace: (ws: string) => [...workspaceKeys.scope(ws), "sso"] as const,
};

/** Where the browser goes to sign in through the provider, then back to `next`. */
export const ssoStartHref = (next?: string) =>
  `/api/v1/auth/sso/start${next ? `?next=${encodeURIComponent(next)}` : ""}`;

export function useSignInOptions() {
  return useQuery({
    queryKey: ssoKeys.options(),
    queryFn: ({ signal }) =>
      callApi(ssoApi.options, { signal, fallback: "Could not load the sign-in options" }).then((a) => a.data),
    staleTime: 10 * 60_000,
  });
}

export function useWorkspaceSso(workspaceId: string) {
  return useQuery({
    queryKey: ssoKeys.workspace(workspaceId),
    queryFn: ({ signal }) =>
      callApi(ssoApi.workspaceGet, {
        params: { id: workspaceId },
        signal,
        fallback: "Could not load the single sign-on setting",
      }).then((a) => a.data),
  });
}

export function useSetWorkspaceSso(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (require_sso: boolean) =>
      callApi(ssoApi.workspaceUpdate, {
        params: { id: workspaceId },
        body: { require_sso },
        fallback: "Could not change the single sign-on setting",
      }).then((a) => a.data),
    onSuccess: (data: WorkspaceSso) => {
      queryClient.setQueryData(ssoKeys.workspace(workspaceId), data);
      notifySuccess(
        data.require_sso ? "Members must now sign in with single sign-on." : "Single sign-on is optional again.",
      );
    },
  });
}
