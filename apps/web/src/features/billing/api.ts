import { type BillingInterval, billingApi } from "@hangar/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { workspaceKeys } from "../../entities/workspace";
import { callApi } from "../../lib/api-client";

export const billingKeys = {
  state: (workspaceId: string) => [...workspaceKeys.scope(workspaceId), "billing"] as const,
  session: (workspaceId: string, sessionId: string) =>
    [...workspaceKeys.scope(workspaceId), "billing", "checkout", sessionId] as const,
};

export function useBilling(workspaceId: string) {
  return useQuery({
    queryKey: billingKeys.state(workspaceId),
    queryFn: ({ signal }) =>
      callApi(billingApi.get, { params: { id: workspaceId }, signal, fallback: "Could not load the subscription" }),
  });
}

/** Polls a checkout until the webhook has made it active here (or it expired). */
export function useCheckoutSession(workspaceId: string, sessionId: string) {
  return useQuery({
    queryKey: billingKeys.session(workspaceId, sessionId),
    queryFn: ({ signal }) =>
      callApi(billingApi.checkoutSession, {
        params: { id: workspaceId, sessionId },
        signal,
        fallback: "Could not check the payment",
      }),
    refetchInterval: (q) => (q.state.data?.state === "pending" ? 1500 : false),
    enabled: sessionId.startsWith("cs_"),
  });
}

export function useSessionOwner(sessionId: string) {
  return useQuery({
    queryKey: ["billing-session-owner", sessionId],
    queryFn: ({ signal }) =>
      callApi(billingApi.sessionOwner, { params: { sessionId }, signal, fallback: "Could not find this checkout" }),
    enabled: sessionId.startsWith("cs_"),
    retry: false,
  });
}

/** Sends the browser to the provider's page answered by the server (checkout or portal). */
const go = (answer: { url: string }) => window.location.assign(answer.url);

export function useStartCheckout(workspaceId: string) {
  return useMutation({
    mutationFn: (body: { plan: string; interval: BillingInterval }) =>
      callApi(billingApi.checkout, { params: { id: workspaceId }, body, fallback: "Could not start the checkout" }),
    onSuccess: go,
  });
}

export function useOpenPortal(workspaceId: string) {
  return useMutation({
    mutationFn: () =>
      callApi(billingApi.portal, { params: { id: workspaceId }, fallback: "Could not open the billing portal" }),
    onSuccess: go,
  });
}

export function usePreviewChange(workspaceId: string, plan: string, interval: BillingInterval, enabled: boolean) {
  return useQuery({
    queryKey: [...billingKeys.state(workspaceId), "preview", plan, interval],
    queryFn: ({ signal }) =>
      callApi(billingApi.preview, {
        params: { id: workspaceId },
        body: { plan, interval },
        signal,
        fallback: "Could not preview the change",
      }),
    enabled,
    retry: false,
    staleTime: 60_000,
  });
}

/** Plan change, cancel and resume: each answers the new state, which replaces the cached one. */
export function useSubscriptionAction(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      action:
        | { kind: "change"; plan: string; interval: BillingInterval; proration_date: number }
        | { kind: "cancel" | "resume" },
    ) => {
      const params = { id: workspaceId };
      if (action.kind !== "change") {
        return action.kind === "cancel"
          ? callApi(billingApi.cancel, { params, fallback: "Could not cancel" })
          : callApi(billingApi.resume, { params, fallback: "Could not resume" });
      }
      const { plan, interval, proration_date } = action;
      return callApi(billingApi.change, {
        params,
        body: { plan, interval, proration_date },
        fallback: "Could not change the plan",
      });
    },
    onSuccess: (state) => queryClient.setQueryData(billingKeys.state(workspaceId), state),
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.state(workspaceId) }),
  });
}
