import { ACCOUNT_MESSAGES, membersApi } from "@hangar/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { rememberWorkspace } from "../../entities/workspace";
import { callApi } from "../../lib/api-client";
import { notifySuccess } from "../../lib/notify";

export const inviteKeys = {
  info: (token: string) => ["invites", "info", token] as const,
};

export function useInviteInfo(token: string) {
  return useQuery({
    queryKey: inviteKeys.info(token),
    queryFn: () =>
      callApi(membersApi.inviteInfo, {
        params: { token },
        fallback: ACCOUNT_MESSAGES.inviteDetails,
      }),
    // The page itself shows the failure.
    meta: { errorMessage: null },
  });
}

export function useAcceptInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) =>
      callApi(membersApi.acceptInvite, {
        body: { token },
        fallback: ACCOUNT_MESSAGES.acceptInvite,
      }),
    onSuccess: ({ data: workspace }, token) => {
      rememberWorkspace(queryClient, workspace);
      queryClient.removeQueries({ queryKey: inviteKeys.info(token), exact: true });
      notifySuccess(`You joined ${workspace.name}`);
    },
  });
}
