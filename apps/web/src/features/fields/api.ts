import {
  type CustomField,
  FIELD_MESSAGES,
  FIELD_UPDATE_GUARD_MS,
  type FieldValue,
  fieldsApi,
  type SetFieldValueBody,
} from "@hangar/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { invalidateAssetQueries } from "../../entities/asset";
import { workspaceKeys } from "../../entities/workspace";
import { callApi } from "../../lib/api-client";

export const fieldKeys = {
  list: (workspaceId: string) => [...workspaceKeys.scope(workspaceId), "fields"] as const,
  values: (workspaceId: string, assetId: string) =>
    [...workspaceKeys.scope(workspaceId), "field-values", assetId] as const,
  allValues: (workspaceId: string) => [...workspaceKeys.scope(workspaceId), "field-values"] as const,
};

/** The workspace's custom fields; with no workspace (not needed yet) nothing is asked. */
export function useFields(workspaceId: string | null) {
  return useQuery({
    queryKey: fieldKeys.list(workspaceId ?? ""),
    queryFn: ({ signal }) =>
      callApi(fieldsApi.list, { params: { id: workspaceId! }, signal, fallback: FIELD_MESSAGES.fetchFailed }),
    enabled: workspaceId !== null,
  });
}

/** One asset's values; with no asset (a dialog acting on many) nothing is asked. */
export function useFieldValues(workspaceId: string, assetId: string | null) {
  return useQuery({
    queryKey: fieldKeys.values(workspaceId, assetId ?? ""),
    queryFn: ({ signal }) =>
      callApi(fieldsApi.assetValues, {
        params: { id: workspaceId, objectId: assetId! },
        signal,
        fallback: FIELD_MESSAGES.fetchFailed,
      }),
    enabled: assetId !== null,
  });
}

export type ValueInput = Pick<SetFieldValueBody, "option_value_id" | "multi_option_ids" | "text_value" | "date_value">;

/**
 * Sets a field's value on assets (spec 02 §7). An update identical to the previous one within a second
 * is dropped (spec 02 §9, a double click or a blur after Enter).
 */
export function useSetFieldValue(workspaceId: string) {
  const queryClient = useQueryClient();
  const last = useRef<{ key: string; at: number } | null>(null);
  const mutation = useMutation({
    mutationFn: ({ field, assetIds, value }: { field: CustomField; assetIds: string[]; value: ValueInput }) =>
      callApi(fieldsApi.setValue, {
        params: { id: workspaceId, fieldId: field.id },
        body: { asset_ids: assetIds, ...value },
        fallback: FIELD_MESSAGES.valueFailed,
      }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: fieldKeys.allValues(workspaceId) });
      void queryClient.invalidateQueries({ queryKey: fieldKeys.list(workspaceId) });
      invalidateAssetQueries(queryClient, workspaceId);
    },
  });
  const set = (
    args: { field: CustomField; assetIds: string[]; value: ValueInput },
    opts?: Parameters<typeof mutation.mutate>[1],
  ) => {
    const key = JSON.stringify([args.field.id, [...args.assetIds].sort(), args.value]);
    const now = Date.now();
    if (last.current && last.current.key === key && now - last.current.at < FIELD_UPDATE_GUARD_MS) return false;
    last.current = { key, at: now };
    mutation.mutate(args, opts);
    return true;
  };
  return { set, isPending: mutation.isPending };
}

/** The current value as the editor's input (spec 02 §4 defaults: empty list, empty string, null date). */
export function editorValue(field: CustomField, v: FieldValue | undefined) {
  return {
    option: v?.option_value?.id ?? null,
    multi: v?.multi_options.map((o) => o.id) ?? [],
    text: v?.text_value ?? "",
    date: v?.date_value ?? null,
    type: field.field_type,
  };
}

/** ADMIN's field management (Settings → Fields): every change refreshes the list and the values. */
export function useFieldAdmin(workspaceId: string) {
  const queryClient = useQueryClient();
  const params = { id: workspaceId };
  const settle = () => {
    void queryClient.invalidateQueries({ queryKey: fieldKeys.list(workspaceId) });
    void queryClient.invalidateQueries({ queryKey: fieldKeys.allValues(workspaceId) });
  };
  return {
    create: useMutation({
      mutationFn: (body: { title: string; field_type: CustomField["field_type"] }) =>
        callApi(fieldsApi.create, { params, body, fallback: FIELD_MESSAGES.updateFailed }),
      onSettled: settle,
    }),
    update: useMutation({
      mutationFn: ({ id, ...body }: { id: string; title?: string; field_type?: CustomField["field_type"] }) =>
        callApi(fieldsApi.update, { params: { ...params, fieldId: id }, body, fallback: FIELD_MESSAGES.updateFailed }),
      onSettled: settle,
    }),
    remove: useMutation({
      mutationFn: (id: string) =>
        callApi(fieldsApi.remove, { params: { ...params, fieldId: id }, fallback: FIELD_MESSAGES.updateFailed }),
      onSettled: settle,
    }),
    createOption: useMutation({
      mutationFn: ({ fieldId, label, color }: { fieldId: string; label: string; color: string }) =>
        callApi(fieldsApi.createOption, {
          params: { ...params, fieldId },
          body: { label, color },
          fallback: FIELD_MESSAGES.updateFailed,
        }),
      onSettled: settle,
    }),
    updateOption: useMutation({
      mutationFn: ({
        fieldId,
        optId,
        ...body
      }: {
        fieldId: string;
        optId: string;
        label?: string;
        color?: string;
        position?: number;
      }) =>
        callApi(fieldsApi.updateOption, {
          params: { ...params, fieldId, optId },
          body,
          fallback: FIELD_MESSAGES.updateFailed,
        }),
      onSettled: settle,
    }),
    removeOption: useMutation({
      mutationFn: ({ fieldId, optId }: { fieldId: string; optId: string }) =>
        callApi(fieldsApi.removeOption, {
          params: { ...params, fieldId, optId },
          fallback: FIELD_MESSAGES.updateFailed,
        }),
      onSettled: settle,
    }),
  };
}
