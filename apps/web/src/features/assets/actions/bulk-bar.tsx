import { ActionIcon, Button, Divider, Group, Paper, Text, Tooltip } from "@mantine/core";
import {
  IconDownload,
  IconFolderMinus,
  IconFolderPlus,
  IconFolderSymlink,
  IconStar,
  IconStarOff,
  IconTag,
  IconTrash,
  IconX,
} from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { lazyNamed, WhenOpened } from "../../../lib/deferred";
import { assetQuery, useSetFavorite } from "./api";
import type { AssetDialogKind } from "./asset-action-dialogs";
import { useAssetPermissions } from "./use-asset-permissions";
import { downloadAsset, downloadItems, useDownload } from "./use-download";

// Fetched the first time a dialog opens: not part of the grid's first load.
const AssetActionDialogs = lazyNamed(() => import("./asset-action-dialogs"), "AssetActionDialogs");

function BarButton({
  icon,
  label,
  onClick,
  color,
  disabled,
  loading,
}: {
  icon: ReactNode;
  label: string;
  onClick: () => void;
  color?: string;
  disabled?: boolean;
  loading?: boolean;
}) {
  return (
    <Button
      size="compact-sm"
      variant="subtle"
      color={color ?? "dark"}
      leftSection={icon}
      onClick={onClick}
      disabled={disabled}
      loading={loading}
    >
      {label}
    </Button>
  );
}

/**
 * The asset bulk bar (spec 01 §4): "N selected" and the actions on them — tag, favourite, add to
 * board, move to board, remove from board (in a board), download, delete — and clear. Editing actions
 * are left out for a COMMENTER (who may favourite and download). Sharing arrives later; it has no entry.
 * Sticky at the bottom of the grid's scroll area; renders nothing while nothing is selected.
 */
export function BulkBar({
  workspaceId,
  boardId,
  assetIds,
  onClear,
}: {
  workspaceId: string;
  boardId: string | null;
  assetIds: string[];
  onClear: () => void;
}) {
  const { canEdit } = useAssetPermissions(workspaceId);
  const favorite = useSetFavorite(workspaceId);
  const download = useDownload(workspaceId);
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<AssetDialogKind | null>(null);
  // The ids the open dialog acts on, kept while it animates out (the selection may clear under it).
  const [dialogIds, setDialogIds] = useState<string[]>([]);

  const open = (kind: AssetDialogKind) => {
    setDialogIds(assetIds);
    setDialog(kind);
  };

  const startDownload = async () => {
    if (assetIds.length !== 1) return downloadItems(workspaceId, { assetIds });
    const id = assetIds[0]!;
    try {
      const asset = await queryClient.fetchQuery(assetQuery(workspaceId, id));
      await downloadAsset(workspaceId, asset);
    } catch {
      // Unknown size: ask for it as a direct download (the server answers one either way).
      await downloadAsset(workspaceId, { id, name: "asset", size: 0 });
    }
  };

  const count = assetIds.length;
  return (
    <>
      {count > 0 && (
        <Paper
          shadow="md"
          radius="lg"
          withBorder
          px="sm"
          py={6}
          role="toolbar"
          aria-label="Selected assets"
          data-testid="asset-bulk-bar"
          style={{ position: "sticky", bottom: 16, zIndex: 5 }}
        >
          <Group gap={4} wrap="wrap" justify="space-between">
            <Group gap={4} wrap="wrap">
              <Text size="sm" fw={600} px={6} style={{ whiteSpace: "nowrap" }} data-testid="bulk-count">
                {count} selected
              </Text>
              <Divider orientation="vertical" mx={4} />
              {canEdit && <BarButton icon={<IconTag size={16} />} label="Tag" onClick={() => open("tags")} />}
              <BarButton
                icon={<IconStar size={16} />}
                label="Favourite"
                onClick={() => favorite.mutate({ ids: assetIds, favorite: true })}
                disabled={favorite.isPending}
              />
              <BarButton
                icon={<IconStarOff size={16} />}
                label="Unfavourite"
                onClick={() => favorite.mutate({ ids: assetIds, favorite: false })}
                disabled={favorite.isPending}
              />
              {canEdit && (
                <>
                  <BarButton icon={<IconFolderPlus size={16} />} label="Add to board" onClick={() => open("add")} />
                  <BarButton icon={<IconFolderSymlink size={16} />} label="Move" onClick={() => open("move")} />
                  {boardId && (
                    <BarButton
                      icon={<IconFolderMinus size={16} />}
                      label="Remove from board"
                      onClick={() => open("remove")}
                    />
                  )}
                </>
              )}
              <BarButton
                icon={<IconDownload size={16} />}
                label="Download"
                onClick={() => void startDownload()}
                loading={download.isDownloading}
              />
              {canEdit && (
                <BarButton icon={<IconTrash size={16} />} label="Delete" color="red" onClick={() => open("delete")} />
              )}
            </Group>
            <Tooltip label="Clear selection" openDelay={300}>
              <ActionIcon variant="subtle" color="gray" aria-label="Clear selection" onClick={onClear}>
                <IconX size={18} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Paper>
      )}
      <WhenOpened open={dialog !== null}>
        <AssetActionDialogs
          workspaceId={workspaceId}
          boardId={boardId}
          assetIds={dialogIds}
          open={dialog}
          onClose={() => setDialog(null)}
          onMovedOrDeleted={onClear}
        />
      </WhenOpened>
    </>
  );
}
