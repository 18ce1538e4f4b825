import { type CustomField, FIELD_MESSAGES, fieldsApi } from "@hangar/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { callApi } from "../../lib/api-client";
import { fieldKeys } from "./api";

// Settings-only (the grid's chunk holds api.ts, so this stays out of it: bench/bundle).
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
