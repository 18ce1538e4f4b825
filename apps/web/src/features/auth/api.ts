import { ACCOUNT_MESSAGES, authApi, type LoginBody, type RegisterBody, type User, usersApi } from "@hangar/contract";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { selectionStore } from "../../entities/workspace";
import { callApi, clearCsrfToken, isApiError, refreshCsrfToken } from "../../lib/api-client";

export const authKeys = {
  all: ["auth"] as const,
  me: () => ["auth", "me"] as const,
  /** Mutation key, so a page can tell that a sign-up is still finishing (useIsMutating). */
  register: () => ["auth", "register"] as const,
};

/** The signed-in user, or null when the session is missing (401 is an answer, not an error). */
async function fetchMe(): Promise<User | null> {
  try {
    const answer = await callApi(usersApi.me);
    return answer.data;
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

export function useMe() {
  return useQuery({ queryKey: authKeys.me(), queryFn: fetchMe, staleTime: 5 * 60_000 });
}

// Set when the user chose to sign out, so the route guard sends them to a plain /a/login (no ?next=).
let signedOutOnPurpose = false;
export const wasSignedOutOnPurpose = (): boolean => signedOutOnPurpose;

/** Drops everything cached for the previous user (every query but the auth ones). */
function dropUserData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== authKeys.all[0] });
}

/** A new session began (login, invited sign-up, verified e-mail): new user, new CSRF token (spec 02 §4). */
export async function startSession(queryClient: QueryClient, user: User): Promise<void> {
  signedOutOnPurpose = false;
  // Signed-out visitors hold only public data (an invitation being accepted): keep it. Another user's
  // data must go.
  const previous = queryClient.getQueryData<User | null>(authKeys.me());
  if (previous && previous.id !== user.id) dropUserData(queryClient);
  queryClient.setQueryData(authKeys.me(), user);
  clearCsrfToken();
  await refreshCsrfToken().catch(() => {
    // the next mutation fetches one lazily
  });
}

/** Sign-out, or a session the server no longer knows: no user, no cached data. */
export function endSession(queryClient: QueryClient): void {
  clearCsrfToken();
  selectionStore.reset();
  dropUserData(queryClient);
  queryClient.setQueryData(authKeys.me(), null);
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => callApi(authApi.login, { body, fallback: "Failed to sign in" }),
    onSuccess: (answer) => startSession(queryClient, answer.data),
  });
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: authKeys.register(),
    mutationFn: (body: RegisterBody) => callApi(authApi.register, { body, fallback: "Failed to create account" }),
    onSuccess: async (answer) => {
      if (answer.signed_in && answer.data) await startSession(queryClient, answer.data);
    },
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => {
      signedOutOnPurpose = true;
      return callApi(authApi.logout, { fallback: "Failed to sign out" });
    },
    // Signed out locally even if the call fails: the user asked to leave.
    onSettled: () => endSession(queryClient),
  });
}

export function useResendVerification() {
  return useMutation({
    mutationFn: (email: string) =>
      callApi(authApi.resendVerification, {
        body: { email },
        fallback: ACCOUNT_MESSAGES.resendVerification,
      }),
  });
}

export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) =>
      callApi(authApi.verifyEmail, {
        params: { token },
        fallback: ACCOUNT_MESSAGES.verifyEmail,
      }),
    onSuccess: (answer) => startSession(queryClient, answer.data),
  });
}

export function useVerifyEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) =>
      callApi(authApi.verifyEmailChange, {
        params: { token },
        fallback: ACCOUNT_MESSAGES.verifyEmailChange,
      }),
    onSuccess: (answer) => {
      // Only update the cached user when this browser is signed in as that user.
      const current = queryClient.getQueryData<User | null>(authKeys.me());
      if (current && current.id === answer.data.id) queryClient.setQueryData(authKeys.me(), answer.data);
    },
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (email: string) =>
      callApi(authApi.forgotPassword, {
        body: { email },
        fallback: "Failed to send the reset link",
      }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: { token: string; new_password: string }) =>
      callApi(authApi.resetPassword, {
        body,
        fallback: "Failed to reset password",
      }),
  });
}
