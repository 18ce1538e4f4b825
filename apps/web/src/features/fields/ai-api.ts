import { type AiActionBody, type AiRun, aiActionsApi } from "@hangar/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { invalidateAssetQueries } from "../../entities/asset";
import { workspaceKeys } from "../../entities/workspace";
import { callApi } from "../../lib/api-client";
import { fieldKeys } from "./api";

const FAILED = "Failed to update AI action";

export const aiKeys = {
  available: (ws: string) => [...workspaceKeys.scope(ws), "ai-actions", "available"] as const,
  results: (ws: string, assetId: string) => [...workspaceKeys.scope(ws), "ai-actions", "results", assetId] as const,
  allResults: (ws: string) => [...workspaceKeys.scope(ws), "ai-actions", "results"] as const,
  run: (ws: string, runId: string) => [...workspaceKeys.scope(ws), "ai-actions", "run", runId] as const,
  text: (ws: string, assetId: string) => [...workspaceKeys.scope(ws), "recognised-text", assetId] as const,
};

/** The kinds of action this server runs, each with its config's JSON Schema (rarely changes). */
export function useAvailableAiActions(ws: string) {
  return useQuery({
    queryKey: aiKeys.available(ws),
    queryFn: ({ signal }) => callApi(aiActionsApi.available, { params: { id: ws }, signal }),
    staleTime: 60 * 60_000,
  });
}

/** ADMIN: add, replace and delete an option's actions; the fields list carries them. */
export function useAiActionAdmin(ws: string) {
  const queryClient = useQueryClient();
  const settle = () => void queryClient.invalidateQueries({ queryKey: fieldKeys.list(ws) });
  type Ids = { fieldId: string; optId: string };
  return {
    create: useMutation({
      mutationFn: ({ fieldId, optId, body }: Ids & { body: AiActionBody }) =>
        callApi(aiActionsApi.create, { params: { id: ws, fieldId, optId }, body, fallback: FAILED }),
      onSettled: settle,
    }),
    update: useMutation({
      mutationFn: ({ fieldId, optId, actionId, body }: Ids & { actionId: string; body: AiActionBody }) =>
        callApi(aiActionsApi.update, { params: { id: ws, fieldId, optId, actionId }, body, fallback: FAILED }),
      onSettled: settle,
    }),
    remove: useMutation({
      mutationFn: ({ fieldId, optId, actionId }: Ids & { actionId: string }) =>
        callApi(aiActionsApi.remove, { params: { id: ws, fieldId, optId, actionId }, fallback: FAILED }),
      onSettled: settle,
    }),
  };
}

export function useStartAiRun(ws: string) {
  return useMutation({
    mutationFn: (fieldId?: string) =>
      callApi(aiActionsApi.startRun, {
        params: { id: ws },
        body: fieldId ? { field_id: fieldId } : {},
        fallback: "Failed to start the run",
      }),
  });
}

/** A run's progress, polled every second until it ends (then values and results are refreshed). */
export function useAiRun(ws: string, runId: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: aiKeys.run(ws, runId ?? ""),
    enabled: !!runId,
    queryFn: async ({ signal }) => {
      const run = await callApi(aiActionsApi.run, { params: { id: ws, runId: runId! }, signal });
      if (ended(run)) {
        void queryClient.invalidateQueries({ queryKey: fieldKeys.allValues(ws) });
        void queryClient.invalidateQueries({ queryKey: fieldKeys.list(ws) });
        void queryClient.invalidateQueries({ queryKey: aiKeys.allResults(ws) });
        invalidateAssetQueries(queryClient, ws);
      }
      return run;
    },
    refetchInterval: (q) => (q.state.data && ended(q.state.data) ? false : 1000),
  });
}
const ended = (run: AiRun) => run.status === "done" || run.status === "failed";

/** Each action's last evaluation on an asset (the AI mark's evidence). */
export function useAiResults(ws: string, assetId: string, enabled: boolean) {
  return useQuery({
    queryKey: aiKeys.results(ws, assetId),
    enabled,
    queryFn: ({ signal }) =>
      callApi(aiActionsApi.results, {
        params: { id: ws },
        query: { content_type: "asset", object_id: assetId },
        signal,
      }),
  });
}

/**
 * What OCR read of the asset. It is read after processing (`pending` until then): asked again every
 * 2 s while pending, and once read, the asset's values and AI results are fetched again (an action on
 * the text may have set one).
 */
export function useRecognisedText(ws: string, assetId: string) {
  const queryClient = useQueryClient();
  const wasPending = useRef(false);
  const query = useQuery({
    queryKey: aiKeys.text(ws, assetId),
    queryFn: ({ signal }) => callApi(aiActionsApi.recognisedText, { params: { id: ws, objectId: assetId }, signal }),
    refetchInterval: (q) => (q.state.data?.status === "pending" ? TEXT_POLL_MS : false),
  });
  const status = query.data?.status;
  useEffect(() => {
    if (status === "pending") wasPending.current = true;
    else if (status && wasPending.current) {
      wasPending.current = false;
      void queryClient.invalidateQueries({ queryKey: fieldKeys.values(ws, assetId) });
      void queryClient.invalidateQueries({ queryKey: aiKeys.results(ws, assetId) });
    }
  }, [status, queryClient, ws, assetId]);
  return query;
}
const TEXT_POLL_MS = 2_000;
