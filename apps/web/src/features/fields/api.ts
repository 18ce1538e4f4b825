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
import { callApi } from "../../lib/api-client";
import { invalidateAssetQueries } from "../assets/actions/api";
import { workspaceKeys } from "../workspaces";

export const fieldKeys = {
  list: (workspaceId: string) => [...workspaceKeys.scope(workspaceId), "fields"] as const,
  values: (workspaceId: string, assetId: string) =>
    [...workspaceKeys.scope(workspaceId), "field-values", assetId] as const,
  allValues: (workspaceId: string) => [...workspaceKeys.scope(workspaceId), "field-values"] as const,
};

export function useFields(workspaceId: string) {
  return useQuery({
    queryKey: fieldKeys.list(workspaceId),
    queryFn: ({ signal }) =>
      callApi(fieldsApi.list, { params: { id: workspaceId }, signal, fallback: FIELD_MESSAGES.fetchFailed }),
  });
}

export function useFieldValues(workspaceId: string, assetId: string) {
  return useQuery({
    queryKey: fieldKeys.values(workspaceId, assetId),
    queryFn: ({ signal }) =>
      callApi(fieldsApi.assetValues, {
        params: { id: workspaceId, objectId: assetId },
        signal,
        fallback: FIELD_MESSAGES.fetchFailed,
      }),
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

const byIds = <T extends { id: string }>(list: T[], ids: string[]) =>
  ids.map((id) => list.find((x) => x.id === id)).filter((x): x is T => x !== undefined);

/**
 * Drag-to-reorder in Settings → Fields, optimistic: the list takes the new order at once (before the
 * drop's next paint, so nothing jumps back), and a refused save puts the order it had back and hands the
 * error on. The list is fetched again either way.
 */
export function useFieldOrder(workspaceId: string) {
  const queryClient = useQueryClient();
  const key = fieldKeys.list(workspaceId);
  const params = { id: workspaceId };
  const settled = () => {
    void queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: fieldKeys.allValues(workspaceId) });
  };
  // The undo and the error's handler ride with each call, so an earlier refused save still reverts.
  type Refusal = { undo(): void; onError(err: unknown): void };
  const refused = (err: unknown, r: Refusal) => {
    r.undo();
    r.onError(err);
  };
  const fields = useMutation({
    mutationFn: ({ ids }: { ids: string[] } & Refusal) =>
      callApi(fieldsApi.reorder, { params, body: { field_ids: ids }, fallback: FIELD_MESSAGES.updateFailed }),
    onError: refused,
    onSettled: settled,
  });
  const options = useMutation({
    mutationFn: ({ fieldId, ids }: { fieldId: string; ids: string[] } & Refusal) =>
      callApi(fieldsApi.reorderOptions, {
        params: { ...params, fieldId },
        body: { option_ids: ids },
        fallback: FIELD_MESSAGES.updateFailed,
      }),
    onError: refused,
    onSettled: settled,
  });
  /** Sets the cache now and answers how to undo it. */
  const apply = (change: (list: CustomField[]) => CustomField[]) => {
    void queryClient.cancelQueries({ queryKey: key });
    const before = queryClient.getQueryData<CustomField[]>(key);
    if (before) queryClient.setQueryData<CustomField[]>(key, change(before));
    return () => {
      if (before) queryClient.setQueryData<CustomField[]>(key, before);
    };
  };
  return {
    moveFields(ids: string[], onError: (err: unknown) => void) {
      fields.mutate({ ids, onError, undo: apply((list) => byIds(list, ids)) });
    },
    moveOptions(fieldId: string, ids: string[], onError: (err: unknown) => void) {
      const undo = apply((list) => list.map((f) => (f.id === fieldId ? { ...f, options: byIds(f.options, ids) } : f)));
      options.mutate({ fieldId, ids, onError, undo });
    },
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
