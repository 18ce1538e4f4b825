import {
  type ApiKey,
  apiKeysApi,
  type CreateApiKeyBody,
  type CreatePersonalTokenBody,
  type PersonalToken,
  personalTokensApi,
} from "@hangar/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { workspaceKeys } from "../../entities/workspace";
import { callApi } from "../../lib/api-client";
import { notifySuccess } from "../../lib/notify";

export const apiKeyKeys = {
  list: (workspaceId: string) => [...workspaceKeys.scope(workspaceId), "api-keys"] as const,
};

/** The workspace's API keys (ADMIN only; never their secrets). */
export function useApiKeys(workspaceId: string) {
  return useQuery({
    queryKey: apiKeyKeys.list(workspaceId),
    queryFn: async (): Promise<ApiKey[]> =>
      (await callApi(apiKeysApi.list, { params: { id: workspaceId }, fallback: "Failed to fetch API keys" })).data,
  });
}

/** Creates a key: the answer carries its secret, the only time it is ever shown. */
export function useCreateApiKey(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) =>
      callApi(apiKeysApi.create, { params: { id: workspaceId }, body, fallback: "Failed to create API key" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(workspaceId), exact: true }),
  });
}

export function useRevokeApiKey(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) =>
      callApi(apiKeysApi.revoke, { params: { id: workspaceId, keyId }, fallback: "Failed to revoke API key" }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(workspaceId), exact: true });
      notifySuccess("API key revoked");
    },
  });
}

/** A person's personal access tokens: not a workspace's, so outside every workspace's scope. */
export const personalTokenKeys = {
  list: () => ["personal-tokens"] as const,
};

/** The signed-in user's personal access tokens (never their secrets). */
export function usePersonalTokens() {
  return useQuery({
    queryKey: personalTokenKeys.list(),
    queryFn: async (): Promise<PersonalToken[]> =>
      (await callApi(personalTokensApi.list, { fallback: "Failed to fetch personal access tokens" })).data,
  });
}

/** Creates a token: the answer carries its secret, the only time it is ever shown. */
export function useCreatePersonalToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePersonalTokenBody) =>
      callApi(personalTokensApi.create, { body, fallback: "Failed to create the token" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personalTokenKeys.list(), exact: true }),
  });
}

export function useRevokePersonalToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) =>
      callApi(personalTokensApi.revoke, { params: { tokenId }, fallback: "Failed to revoke the token" }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: personalTokenKeys.list(), exact: true });
      notifySuccess("Personal access token revoked");
    },
  });
}
