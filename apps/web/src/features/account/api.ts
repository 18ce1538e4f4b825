import { ACCOUNT_MESSAGES, authApi, type PatchMeBody, type User, usersApi } from "@hangar/contract";
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { callApi } from "../../lib/api-client";
import { notifySuccess } from "../../lib/notify";
import { authKeys } from "../auth";

/** Member lists show names and avatars, so they follow profile changes. */
function refreshMemberLists(queryClient: QueryClient): void {
  queryClient.invalidateQueries({
    predicate: (query) => query.queryKey[0] === "workspace" && query.queryKey[2] === "members",
  });
}

/** Same-origin avatar URLs may not change between uploads; a version parameter defeats the browser cache. */
function withFreshAvatar(previous: User | null | undefined, next: User): User {
  const url = next.avatar_url;
  if (!url?.startsWith("/") || url !== previous?.avatar_url) return next;
  return { ...next, avatar_url: `${url}${url.includes("?") ? "&" : "?"}v=${Date.now()}` };
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PatchMeBody) => callApi(usersApi.patchMe, { body, fallback: ACCOUNT_MESSAGES.updateProfile }),
    onSuccess: (answer) => {
      queryClient.setQueryData(authKeys.me(), answer.data);
      refreshMemberLists(queryClient);
      notifySuccess("Profile updated");
    },
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: { current_password: string; new_password: string }) =>
      callApi(authApi.changePassword, {
        body,
        fallback: "Failed to change password",
      }),
    onSuccess: () => notifySuccess("Password changed"),
  });
}

export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ newEmail, currentPassword }: { newEmail: string; currentPassword: string }) =>
      callApi(authApi.changeEmail, {
        body: { new_email: newEmail, current_password: currentPassword },
        fallback: "Failed to change e-mail",
      }),
    onSuccess: (answer, { newEmail }) => {
      // pending_email now shows the new address.
      queryClient.invalidateQueries({ queryKey: authKeys.me(), exact: true });
      notifySuccess(answer?.detail || `We sent a confirmation link to ${newEmail}`);
    },
  });
}

export function useUploadAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append("avatar_file", file);
      return callApi(usersApi.uploadAvatar, {
        body: form,
        fallback: "Failed to upload avatar",
      });
    },
    onSuccess: (answer) => {
      const previous = queryClient.getQueryData<User | null>(authKeys.me());
      queryClient.setQueryData(authKeys.me(), withFreshAvatar(previous, answer.data));
      refreshMemberLists(queryClient);
      notifySuccess("Avatar updated");
    },
  });
}

export function useRemoveAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(usersApi.deleteAvatar, { fallback: "Failed to remove avatar" }),
    onSuccess: (answer) => {
      queryClient.setQueryData(authKeys.me(), answer.data);
      refreshMemberLists(queryClient);
      notifySuccess("Avatar removed");
    },
  });
}
