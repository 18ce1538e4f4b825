import {
  type CreateWebhookBody,
  type UpdateWebhookBody,
  type Webhook,
  type WebhookDeliveryDetail,
  webhooksApi,
} from "@hangar/contract";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { workspaceKeys } from "../../entities/workspace";
import { callApi } from "../../lib/api-client";
import { notifySuccess } from "../../lib/notify";

export const webhookKeys = {
  list: (workspaceId: string) => [...workspaceKeys.scope(workspaceId), "webhooks"] as const,
  one: (workspaceId: string, id: string) => [...workspaceKeys.scope(workspaceId), "webhooks", id] as const,
  deliveries: (workspaceId: string, id: string) =>
    [...workspaceKeys.scope(workspaceId), "webhooks", id, "deliveries"] as const,
  delivery: (workspaceId: string, id: string, deliveryId: string) =>
    [...workspaceKeys.scope(workspaceId), "webhooks", id, "deliveries", deliveryId] as const,
};

const PAGE = 50;

/** The workspace's endpoints (ADMIN only; never their secrets). */
export function useWebhooks(workspaceId: string) {
  return useQuery({
    queryKey: webhookKeys.list(workspaceId),
    queryFn: async (): Promise<Webhook[]> =>
      (await callApi(webhooksApi.list, { params: { id: workspaceId }, fallback: "Failed to fetch webhooks" })).data,
  });
}

export function useWebhook(workspaceId: string, id: string) {
  return useQuery({
    queryKey: webhookKeys.one(workspaceId, id),
    queryFn: () =>
      callApi(webhooksApi.get, { params: { id: workspaceId, hookId: id }, fallback: "Failed to fetch the webhook" }),
  });
}

/** The endpoint's log, newest first, page after page. */
export function useDeliveries(workspaceId: string, id: string) {
  return useInfiniteQuery({
    queryKey: webhookKeys.deliveries(workspaceId, id),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      callApi(webhooksApi.deliveries, {
        params: { id: workspaceId, hookId: id },
        query: { limit: PAGE, ...(pageParam ? { before: pageParam } : {}) },
        signal,
        fallback: "Failed to fetch the delivery log",
      }),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

export function useDelivery(workspaceId: string, id: string, deliveryId: string | null) {
  return useQuery({
    queryKey: webhookKeys.delivery(workspaceId, id, deliveryId ?? ""),
    enabled: deliveryId !== null,
    queryFn: () =>
      callApi(webhooksApi.delivery, {
        params: { id: workspaceId, hookId: id, deliveryId: deliveryId! },
        fallback: "Failed to fetch the delivery",
      }),
  });
}

/** Whatever changed an endpoint or its log: the list, the endpoint and its log are read again. */
function useRefresh(workspaceId: string) {
  const queryClient = useQueryClient();
  return (id?: string) => {
    queryClient.invalidateQueries({ queryKey: webhookKeys.list(workspaceId), exact: true });
    if (id) {
      queryClient.invalidateQueries({ queryKey: webhookKeys.one(workspaceId, id), exact: true });
      queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(workspaceId, id), exact: true });
    }
  };
}

/** Registers an endpoint: the answer carries its secret, the only time it is ever shown. */
export function useCreateWebhook(workspaceId: string) {
  const refresh = useRefresh(workspaceId);
  return useMutation({
    mutationFn: (body: CreateWebhookBody) =>
      callApi(webhooksApi.create, { params: { id: workspaceId }, body, fallback: "Failed to add the endpoint" }),
    onSuccess: () => refresh(),
  });
}

export function useUpdateWebhook(workspaceId: string) {
  const refresh = useRefresh(workspaceId);
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateWebhookBody }) =>
      callApi(webhooksApi.update, {
        params: { id: workspaceId, hookId: id },
        body,
        fallback: "Failed to save the endpoint",
      }),
    onSuccess: (hook) => refresh(hook.id),
  });
}

export function useDeleteWebhook(workspaceId: string) {
  const refresh = useRefresh(workspaceId);
  return useMutation({
    mutationFn: (id: string) =>
      callApi(webhooksApi.remove, {
        params: { id: workspaceId, hookId: id },
        fallback: "Failed to delete the endpoint",
      }),
    onSuccess: () => {
      refresh();
      notifySuccess("Webhook endpoint deleted");
    },
  });
}

export function useRollSecret(workspaceId: string) {
  return useMutation({
    mutationFn: (id: string) =>
      callApi(webhooksApi.rollSecret, {
        params: { id: workspaceId, hookId: id },
        fallback: "Failed to roll the secret",
      }),
  });
}

/** Sends a test event now; the answer is its delivery (also the newest row of the log). */
export function useSendTest(workspaceId: string) {
  const refresh = useRefresh(workspaceId);
  return useMutation({
    mutationFn: (id: string): Promise<WebhookDeliveryDetail> =>
      callApi(webhooksApi.test, { params: { id: workspaceId, hookId: id }, fallback: "Failed to send a test event" }),
    onSuccess: (_d, id) => refresh(id),
  });
}

export function useRedeliver(workspaceId: string, id: string) {
  const refresh = useRefresh(workspaceId);
  return useMutation({
    mutationFn: (deliveryId: string): Promise<WebhookDeliveryDetail> =>
      callApi(webhooksApi.redeliver, {
        params: { id: workspaceId, hookId: id, deliveryId },
        fallback: "Failed to redeliver",
      }),
    onSuccess: () => refresh(id),
  });
}
