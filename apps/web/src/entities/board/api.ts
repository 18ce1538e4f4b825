import {
  BOARD_MESSAGES,
  type Board,
  type BoardAncestor as BoardAncestorSchema,
  boardsApi,
  type ReorderEntry,
  STORE_MESSAGES,
} from "@hangar/contract";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { callApi, errorMessage, expectArray } from "../../lib/api-client";
import { notifyError, notifySuccess, notifySuccessWithAction } from "../../lib/notify";
import { selectionStore, workspaceKeys } from "../workspace";
import {
  childrenOf,
  indexTree,
  insertInTree,
  isSelfOrDescendant,
  moveInTree,
  removeFromTree,
  renameInTree,
} from "./tree-utils";

/**
 * Query keys, all under workspaceKeys.boards(id) so a workspace switch drops them at once
 * (resetWorkspaceScope). `tree` is the whole nested tree; `ancestors` is per board.
 */
export const boardKeys = {
  tree: (workspaceId: string) => [...workspaceKeys.boards(workspaceId), "tree"] as const,
  ancestorsAll: (workspaceId: string) => [...workspaceKeys.boards(workspaceId), "ancestors"] as const,
  ancestors: (workspaceId: string, boardId: string) =>
    [...workspaceKeys.boards(workspaceId), "ancestors", boardId] as const,
};

export type BoardAncestor = z.infer<typeof BoardAncestorSchema>;

/** The whole tree in one call (recursive=true answers in ~70 ms even for 10,000 boards). */
export function useBoardTree(workspaceId: string) {
  return useQuery({
    queryKey: boardKeys.tree(workspaceId),
    queryFn: async ({ signal }) =>
      expectArray<Board>(
        await callApi(boardsApi.list, {
          params: { id: workspaceId },
          query: { recursive: "true" },
          signal,
          fallback: BOARD_MESSAGES.loadFailed,
        }),
        STORE_MESSAGES.invalidResponse,
      ),
    // No toast: the panel shows the "Failed to load boards" banner with its Retry button.
  });
}

/** Root first, without the board itself; a 404 for an unknown or foreign board. */
export function useBoardAncestors(workspaceId: string, boardId: string) {
  return useQuery({
    queryKey: boardKeys.ancestors(workspaceId, boardId),
    queryFn: async ({ signal }) =>
      expectArray<BoardAncestor>(
        await callApi(boardsApi.ancestors, {
          params: { id: workspaceId, boardId },
          signal,
          fallback: STORE_MESSAGES.fetchBoards,
        }),
        STORE_MESSAGES.invalidResponse,
      ),
    enabled: !!boardId,
  });
}

/** After any change to the tree: the tree itself, and every trail (a rename or a move changes them). */
function invalidateBoards(queryClient: QueryClient, workspaceId: string) {
  queryClient.invalidateQueries({ queryKey: boardKeys.tree(workspaceId), exact: true });
  queryClient.invalidateQueries({ queryKey: boardKeys.ancestorsAll(workspaceId) });
}

/** Applies `change` to the cached tree at once; answers the tree before, for a rollback. */
async function patchTree(queryClient: QueryClient, workspaceId: string, change: (tree: Board[]) => Board[]) {
  const key = boardKeys.tree(workspaceId);
  await queryClient.cancelQueries({ queryKey: key, exact: true });
  const previous = queryClient.getQueryData<Board[]>(key);
  if (previous) queryClient.setQueryData<Board[]>(key, change(previous));
  return previous;
}

function rollback(queryClient: QueryClient, workspaceId: string, previous: Board[] | undefined) {
  if (previous) queryClient.setQueryData(boardKeys.tree(workspaceId), previous);
}

export function useCreateBoard(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, parentId }: { name: string; parentId: string | null }) =>
      callApi(boardsApi.create, {
        params: { id: workspaceId },
        body: { name, parent_id: parentId },
        fallback: BOARD_MESSAGES.createFailed,
      }),
    onSuccess: (board) => {
      // Show it at once; the refetch confirms positions and counts.
      const key = boardKeys.tree(workspaceId);
      const tree = queryClient.getQueryData<Board[]>(key);
      if (tree) queryClient.setQueryData<Board[]>(key, insertInTree(tree, board));
      invalidateBoards(queryClient, workspaceId);
      notifySuccess(BOARD_MESSAGES.created);
    },
    onError: () => notifyError(BOARD_MESSAGES.createFailed),
  });
}

export function useRenameBoard(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      callApi(boardsApi.update, {
        params: { id: workspaceId, boardId: id },
        body: { name },
        fallback: BOARD_MESSAGES.renameFailed,
      }),
    onMutate: async ({ id, name }) => ({
      previous: await patchTree(queryClient, workspaceId, (tree) => renameInTree(tree, id, name)),
    }),
    onSuccess: () => notifySuccess(BOARD_MESSAGES.renamed),
    onError: (_error, _vars, context) => {
      rollback(queryClient, workspaceId, context?.previous);
      notifyError(BOARD_MESSAGES.renameFailed);
    },
    onSettled: () => invalidateBoards(queryClient, workspaceId),
  });
}

/** What a drop in the tree asks of the server; see planDrop. */
export interface DropPlan {
  kind: "move" | "reorder";
  parentId: string | null;
  /** Boards whose parent changes, in tree order: one PUT each (the server appends them). */
  movers: string[];
  /** The full new sibling order under `parentId`, or null when the PUTs already give it. */
  reorder: string[] | null;
  /** The cached tree as it should look afterwards. */
  next: Board[];
}

/**
 * Turns a drop (dragged boards, new parent, index among the new parent's children once the dragged
 * ones are taken out, or null for "inside, at the end") into calls. Null when nothing would change.
 */
export function planDrop(tree: Board[], ids: string[], parentId: string | null, index: number | null): DropPlan | null {
  const lookup = indexTree(tree);
  const movers = ids.filter((id) => (lookup.get(id)?.parentId ?? null) !== parentId);
  const before = childrenOf(tree, lookup, parentId).map((b) => b.id);
  if (!movers.length && index === null) return null; // dropped onto its own parent: already there
  const next = moveInTree(tree, ids, parentId, index);
  const wanted = childrenOf(next, indexTree(next), parentId).map((b) => b.id);
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((id, i) => id === b[i]);
  if (!movers.length) return same(before, wanted) ? null : { kind: "reorder", parentId, movers, reorder: wanted, next };
  // After the PUTs the server holds the old siblings followed by the movers, in PUT order.
  const afterPuts = [...before, ...movers];
  return { kind: "move", parentId, movers, reorder: same(afterPuts, wanted) ? null : wanted, next };
}

const reorderBody = (order: string[]): ReorderEntry[] => order.map((board_id, new_order) => ({ board_id, new_order }));

/**
 * Runs a drop plan: the cache shows the result at once (child counts of old and new parents follow),
 * and goes back to how it was when a call fails.
 */
export function useDropBoards(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (plan: DropPlan) => {
      for (const id of plan.movers) {
        await callApi(boardsApi.update, {
          params: { id: workspaceId, boardId: id },
          // The root travels as "root" (spec 01 §4).
          body: { parent_id: plan.parentId ?? "root" },
          fallback: BOARD_MESSAGES.moveFailed,
        });
      }
      if (plan.reorder) {
        await callApi(boardsApi.reorder, {
          params: { id: workspaceId },
          body: reorderBody(plan.reorder),
          fallback: plan.kind === "move" ? BOARD_MESSAGES.moveFailed : BOARD_MESSAGES.reorderFailed,
        });
      }
    },
    onMutate: async (plan) => ({ previous: await patchTree(queryClient, workspaceId, () => plan.next) }),
    onSuccess: (_answer, plan) => {
      if (plan.kind === "move") selectionStore.clearSelection();
      notifySuccess(plan.kind === "move" ? BOARD_MESSAGES.moved : BOARD_MESSAGES.reordered);
    },
    onError: (_error, plan, context) => {
      rollback(queryClient, workspaceId, context?.previous);
      notifyError(plan.kind === "move" ? BOARD_MESSAGES.moveFailed : BOARD_MESSAGES.reorderFailed);
    },
    onSettled: () => invalidateBoards(queryClient, workspaceId),
  });
}

export interface MoveInput {
  ids: string[];
  /** The destination board, or null for the root level. */
  destination: { id: string; name: string } | null;
}

/**
 * "Move board" from the dialog, for one board or many: a PUT each, in tree order, so they keep their
 * order at the end of the destination. Errors are the caller's (the dialog shows the server's detail,
 * e.g. a move into a sub-board).
 */
export function useMoveBoards(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ids, destination }: MoveInput) => {
      for (const id of ids) {
        await callApi(boardsApi.update, {
          params: { id: workspaceId, boardId: id },
          body: { parent_id: destination?.id ?? "root" },
          fallback: BOARD_MESSAGES.moveFailed,
        });
      }
    },
    // Shown at once unless the server is going to refuse it (a move into its own subtree).
    onMutate: async ({ ids, destination }) => ({
      previous: await patchTree(queryClient, workspaceId, (tree) => {
        const lookup = indexTree(tree);
        if (destination && ids.some((id) => isSelfOrDescendant(lookup, destination.id, id))) return tree;
        return moveInTree(tree, ids, destination?.id ?? null, null);
      }),
    }),
    onSuccess: (_answer, { destination }) => {
      selectionStore.clearSelection();
      notifySuccess(BOARD_MESSAGES.movedTo(destination?.name ?? null));
    },
    onError: (_error, _vars, context) => rollback(queryClient, workspaceId, context?.previous),
    // Some may have moved before one failed: ask the server either way.
    onSettled: () => invalidateBoards(queryClient, workspaceId),
  });
}

/**
 * Deletes boards (soft: their sub-boards and the assets living only inside them go too). The ids
 * should be the topmost ones. The toast offers Undo, which restores each deleted batch.
 */
export function useDeleteBoards(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: string[]) => {
      const deleted: string[] = [];
      for (const id of ids) {
        await callApi(boardsApi.remove, {
          params: { id: workspaceId, boardId: id },
          fallback: BOARD_MESSAGES.deleteFailed,
        });
        deleted.push(id);
      }
      return deleted;
    },
    onSuccess: (deleted) => {
      const key = boardKeys.tree(workspaceId);
      const tree = queryClient.getQueryData<Board[]>(key);
      if (tree) queryClient.setQueryData<Board[]>(key, removeFromTree(tree, deleted));
      selectionStore.clearSelection();
      queryClient.invalidateQueries({ queryKey: workspaceKeys.assets(workspaceId) });
      notifySuccessWithAction(BOARD_MESSAGES.deleted, {
        label: "Undo",
        onClick: () => void restoreBoards(queryClient, workspaceId, deleted),
      });
    },
    onError: () => notifyError(BOARD_MESSAGES.deleteFailed),
    onSettled: () => invalidateBoards(queryClient, workspaceId),
  });
}

/**
 * Brings deleted boards back with everything deleted together with them. A plain function, not a hook:
 * it runs from a toast's Undo button, after the dialog that deleted them is gone.
 */
async function restoreBoards(queryClient: QueryClient, workspaceId: string, ids: string[]) {
  try {
    for (const id of ids) {
      await callApi(boardsApi.restore, {
        params: { id: workspaceId, boardId: id },
        fallback: "Failed to restore board",
      });
    }
    notifySuccess(ids.length === 1 ? "Board restored" : `${ids.length} boards restored`);
  } catch (error) {
    notifyError(errorMessage(error, "Failed to restore board"));
  } finally {
    invalidateBoards(queryClient, workspaceId);
    queryClient.invalidateQueries({ queryKey: workspaceKeys.assets(workspaceId) });
  }
}
