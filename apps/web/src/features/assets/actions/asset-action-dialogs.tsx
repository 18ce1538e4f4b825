import type { Asset } from "@hangar/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useAsset } from "../../../entities/asset";
import { indexTree, useBoardTree } from "../../../entities/board";
import { AddToBoardDialog, MoveToBoardDialog, RemoveFromBoardDialog } from "../../board-membership";
import { FieldValueDialog } from "../../fields";
import { BulkRightsDialog } from "../../rights";
import { findCachedAssets } from "./cached-assets";
import { DeleteAssetsDialog } from "./dialogs/delete-assets-dialog";
import { EditAssetDialog } from "./dialogs/edit-asset-dialog";
import { StackVersionsDialog } from "./dialogs/stack-versions-dialog";
import { TagsDialog } from "./dialogs/tags-dialog";
import { commonTags } from "./tags";

export type AssetDialogKind = "tags" | "add" | "move" | "remove" | "delete" | "edit" | "field" | "stack" | "rights";

/**
 * The asset dialogs, for one asset or many, shared by the bulk bar and the card menu. `asset` is the
 * one asset when the caller has it; with one id and no asset it is fetched (name, tags).
 */
export function AssetActionDialogs({
  workspaceId,
  boardId,
  assetIds,
  asset,
  open,
  onClose,
  onMovedOrDeleted,
}: {
  workspaceId: string;
  boardId: string | null;
  assetIds: string[];
  asset?: Asset | null;
  open: AssetDialogKind | null;
  onClose: () => void;
  /** After a successful move, delete or remove from board (the caller clears its selection, spec 01 §4). */
  onMovedOrDeleted?: () => void;
}) {
  const queryClient = useQueryClient();
  const single = assetIds.length === 1 ? assetIds[0]! : null;
  // Only while a dialog that needs it is open, and only when the caller did not hand it over.
  const fetched = useAsset(workspaceId, open && single && !asset ? single : null);
  const one = asset ?? fetched.data ?? null;

  const initialTags = useMemo(() => {
    if (open !== "tags") return null;
    if (one) return one.tags;
    const known = findCachedAssets(queryClient, workspaceId, assetIds);
    if (single) return known.get(single)?.tags ?? null;
    return known.size === assetIds.length ? commonTags(assetIds.map((id) => known.get(id)!.tags)) : null;
  }, [open, one, queryClient, workspaceId, assetIds, single]);

  const name =
    one?.name ?? (single ? findCachedAssets(queryClient, workspaceId, [single]).get(single)?.name : undefined);

  const tree = useBoardTree(workspaceId);
  const boardName = useMemo(
    () => (boardId ? indexTree(tree.data ?? []).get(boardId)?.board.name : undefined),
    [tree.data, boardId],
  );

  return (
    <>
      <TagsDialog
        workspaceId={workspaceId}
        assetIds={assetIds}
        initialTags={initialTags}
        opened={open === "tags"}
        onClose={onClose}
      />
      <EditAssetDialog workspaceId={workspaceId} asset={one} opened={open === "edit"} onClose={onClose} />
      <FieldValueDialog workspaceId={workspaceId} assetIds={assetIds} opened={open === "field"} onClose={onClose} />
      <BulkRightsDialog workspaceId={workspaceId} assetIds={assetIds} opened={open === "rights"} onClose={onClose} />
      <AddToBoardDialog
        workspaceId={workspaceId}
        assetIds={assetIds}
        name={name}
        opened={open === "add"}
        onClose={onClose}
      />
      <MoveToBoardDialog
        workspaceId={workspaceId}
        assetIds={assetIds}
        name={name}
        opened={open === "move"}
        onClose={onClose}
        onMoved={onMovedOrDeleted}
      />
      <RemoveFromBoardDialog
        workspaceId={workspaceId}
        boardId={boardId}
        boardName={boardName}
        assetIds={assetIds}
        name={name}
        opened={open === "remove"}
        onClose={onClose}
        // They leave the board's view: keeping them selected there would act on what is not shown.
        onRemoved={onMovedOrDeleted}
      />
      <StackVersionsDialog
        workspaceId={workspaceId}
        assetIds={assetIds}
        opened={open === "stack"}
        onClose={onClose}
        onStacked={onMovedOrDeleted}
      />
      <DeleteAssetsDialog
        workspaceId={workspaceId}
        assetIds={assetIds}
        name={name}
        opened={open === "delete"}
        onClose={onClose}
        onDeleted={onMovedOrDeleted}
      />
    </>
  );
}
