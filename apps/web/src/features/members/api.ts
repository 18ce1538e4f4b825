import { type Invite, type Member, membersApi, type Role, STORE_MESSAGES } from "@hangar/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { forgetWorkspace, workspaceKeys } from "../../entities/workspace";
import { callApi, expectArray } from "../../lib/api-client";
import { notifySuccess } from "../../lib/notify";

export const memberKeys = {
  members: (workspaceId: string) => [...workspaceKeys.scope(workspaceId), "members"] as const,
  invites: (workspaceId: string) => [...workspaceKeys.scope(workspaceId), "invites"] as const,
};

export function useMembers(workspaceId: string, enabled = true) {
  return useQuery({
    enabled,
    queryKey: memberKeys.members(workspaceId),
    queryFn: async () =>
      expectArray<Member>(
        await callApi(membersApi.list, { params: { id: workspaceId }, fallback: "Failed to fetch members" }),
        STORE_MESSAGES.invalidResponse,
      ),
  });
}

/** Pending invitations; only admins may list them. */
export function useInvites(workspaceId: string, enabled: boolean) {
  return useQuery({
    queryKey: memberKeys.invites(workspaceId),
    queryFn: async () =>
      expectArray<Invite>(
        await callApi(membersApi.invites, { params: { id: workspaceId }, fallback: "Failed to fetch invitations" }),
        STORE_MESSAGES.invalidResponse,
      ),
    enabled,
  });
}

export function useUpdateMemberRole(workspaceId: string, currentUserId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      callApi(membersApi.setRole, {
        params: { id: workspaceId, userId },
        body: { role },
        fallback: "Failed to update role",
      }),
    onSuccess: (_member, { userId }) => {
      queryClient.invalidateQueries({ queryKey: memberKeys.members(workspaceId), exact: true });
      // Changing one's own role changes user_role on the workspace itself.
      if (userId === currentUserId) {
        queryClient.invalidateQueries({ queryKey: workspaceKeys.detail(workspaceId), exact: true });
        queryClient.invalidateQueries({ queryKey: workspaceKeys.list(), exact: true });
      }
      notifySuccess("Role updated");
    },
  });
}

export function useRemoveMember(workspaceId: string, currentUserId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      callApi(membersApi.remove, {
        params: { id: workspaceId, userId },
        fallback: "Failed to remove member",
      }),
    onSuccess: (_answer, userId) => {
      if (userId === currentUserId) {
        // Left the workspace: nothing in it is ours to see any more.
        forgetWorkspace(queryClient, workspaceId);
        notifySuccess("You left the workspace");
        return;
      }
      queryClient.invalidateQueries({ queryKey: memberKeys.members(workspaceId), exact: true });
      queryClient.invalidateQueries({ queryKey: workspaceKeys.detail(workspaceId), exact: true });
      queryClient.invalidateQueries({ queryKey: workspaceKeys.list(), exact: true });
      notifySuccess("Member removed");
    },
  });
}

export function useCreateInvite(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; role: Role }) =>
      callApi(membersApi.invite, {
        params: { id: workspaceId },
        body,
        fallback: "Failed to send invitation",
      }),
    onSuccess: (invite) => {
      queryClient.invalidateQueries({ queryKey: memberKeys.invites(workspaceId), exact: true });
      notifySuccess(`Invitation sent to ${invite.email}`);
    },
  });
}

export function useRevokeInvite(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (inviteId: string) =>
      callApi(membersApi.revokeInvite, {
        params: { id: workspaceId, inviteId },
        fallback: "Failed to revoke invitation",
      }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: memberKeys.invites(workspaceId), exact: true });
      notifySuccess("Invitation revoked");
    },
  });
}
