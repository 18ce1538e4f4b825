import { ActionIcon, Button, Divider, Group, Menu, Paper, Text } from "@mantine/core";
import {
  IconArrowsDiff,
  IconChecklist,
  IconDots,
  IconDownload,
  IconFolderMinus,
  IconFolderPlus,
  IconFolderSymlink,
  IconForms,
  IconLicense,
  IconShare,
  IconStack2,
  IconStar,
  IconStarOff,
  IconTag,
  IconTrash,
  IconX,
} from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { memo, type ReactNode, Suspense, useCallback, useState, useSyncExternalStore } from "react";
import { assetQuery } from "../../../entities/asset";
import { lazyNamed, WhenOpened } from "../../../lib/deferred";
import { LazyTooltip as Tooltip } from "../../../lib/lazy-tooltip";
import { downloadAsset, downloadItems, useDownload } from "../../downloads";
import { RequestReviewDialog } from "../../reviews";
import { ShareButtonDialog } from "../../shares";
import { useSetFavorite } from "./api";
import type { AssetDialogKind } from "./asset-action-dialogs";
import { findCachedAssets } from "./cached-assets";
import { useAssetPermissions } from "./use-asset-permissions";

// Fetched the first time a dialog opens: not part of the grid's first load.
const AssetActionDialogs = lazyNamed(() => import("./asset-action-dialogs"), "AssetActionDialogs");
// Compare (issue 29) is the viewer's, in its chunk.
const CompareAssets = lazyNamed(
  () => import("../../viewer").then((viewer) => ({ CompareAssets: viewer.CompareAssets })),
  "CompareAssets",
);

function BarButton({
  icon,
  label,
  name,
  onClick,
  color,
  disabled,
  loading,
}: {
  icon: ReactNode;
  label: string;
  /** The full name (accessible name and tooltip) when the label shown is a short form of it. */
  name?: string;
  onClick: () => void;
  color?: string;
  disabled?: boolean;
  loading?: boolean;
}) {
  const button = (
    <Button
      aria-label={name}
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
  return name ? (
    <Tooltip label={name} openDelay={300}>
      {button}
    </Tooltip>
  ) : (
    button
  );
}

/**
 * The asset bulk bar (spec 01 §4): "N selected" and the actions on them — tag, favourite, add to
 * board, move to board, remove from board (in a board), share, compare (two) and stack as versions
 * (issue 29), request review (issue 30), download, delete — and clear. Editing actions (request
 * review among them) are left out for a COMMENTER (who may favourite, download and compare).
 * Sticky at the bottom of the grid's scroll area; renders nothing while nothing is selected.
 * Memoised: the browser re-renders with every page of a scroll.
 */
export const BulkBar = memo(function BulkBar({
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
  const [sharing, setSharing] = useState(false);
  const [comparing, setComparing] = useState<[string, string] | null>(null);
  const [reviewing, setReviewing] = useState(false);

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
  // Re-read the cached favourites as listings refetch (after a toggle, or another member's change).
  // Only a change of the answer renders the bar again: a render per cache event interrupted every
  // navigation away from the grid (the next page's queries are cache events), which never finished.
  const subscribe = useCallback(
    (onChange: () => void) => queryClient.getQueryCache().subscribe(onChange),
    [queryClient],
  );
  const allFavourite = useSyncExternalStore(subscribe, () => {
    if (count === 0) return false;
    const known = findCachedAssets(queryClient, workspaceId, assetIds);
    return known.size === count && [...known.values()].every((a) => a.favorite);
  });
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
          {/* The actions may wrap; Clear selection stays on the first line, at the right. */}
          <Group gap={4} wrap="nowrap" justify="space-between" align="flex-start">
            <Group gap={4} wrap="wrap" style={{ flex: 1, minWidth: 0 }}>
              <Text size="sm" fw={600} px={6} style={{ whiteSpace: "nowrap" }} data-testid="bulk-count">
                {count} selected
              </Text>
              <Divider orientation="vertical" mx={4} />
              {canEdit && <BarButton icon={<IconTag size={16} />} label="Tag" onClick={() => open("tags")} />}
              {canEdit && <BarButton icon={<IconForms size={16} />} label="Field" onClick={() => open("field")} />}
              {/* One toggle: Unfavourite when every selected asset is already a favourite, else Favourite. */}
              <BarButton
                icon={allFavourite ? <IconStarOff size={16} /> : <IconStar size={16} />}
                label={allFavourite ? "Unfavourite" : "Favourite"}
                onClick={() => favorite.mutate({ ids: assetIds, favorite: !allFavourite })}
                disabled={favorite.isPending}
              />
              {canEdit && (
                <>
                  <BarButton icon={<IconFolderPlus size={16} />} label="Add to board" onClick={() => open("add")} />
                  <BarButton icon={<IconFolderSymlink size={16} />} label="Move" onClick={() => open("move")} />
                  {boardId && (
                    // "Remove" on the bar (its name says the rest): the bar stays one line at 1440 px (issue 35).
                    <BarButton
                      icon={<IconFolderMinus size={16} />}
                      label="Remove"
                      name="Remove from board"
                      onClick={() => open("remove")}
                    />
                  )}
                </>
              )}
              {canEdit && (
                <BarButton
                  icon={<IconShare size={16} />}
                  label="Share"
                  onClick={() => {
                    setDialogIds(assetIds);
                    setSharing(true);
                  }}
                />
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
              {/* Versions' (issue 29), rights' and approvals' (issues 33, 30) actions are rarer: a menu keeps the bar one line at 1440 px (issue 35). */}
              {(count === 2 || canEdit) && (
                <Menu position="top-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" color="gray" aria-label="More actions" data-testid="bulk-more">
                      <IconDots size={16} />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    {count === 2 && (
                      <Menu.Item
                        leftSection={<IconArrowsDiff size={16} />}
                        onClick={() => setComparing([assetIds[0]!, assetIds[1]!])}
                      >
                        Compare
                      </Menu.Item>
                    )}
                    {canEdit && count >= 2 && (
                      <Menu.Item leftSection={<IconStack2 size={16} />} onClick={() => open("stack")}>
                        Stack as versions
                      </Menu.Item>
                    )}
                    {canEdit && (
                      <Menu.Item leftSection={<IconLicense size={16} />} onClick={() => open("rights")}>
                        Usage rights…
                      </Menu.Item>
                    )}
                    {canEdit && (
                      <Menu.Item
                        leftSection={<IconChecklist size={16} />}
                        onClick={() => {
                          setDialogIds(assetIds);
                          setReviewing(true);
                        }}
                      >
                        Request review…
                      </Menu.Item>
                    )}
                  </Menu.Dropdown>
                </Menu>
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
      {comparing && (
        <Suspense fallback={null}>
          <CompareAssets workspaceId={workspaceId} assetIds={comparing} onClose={() => setComparing(null)} />
        </Suspense>
      )}
      <WhenOpened open={reviewing}>
        <RequestReviewDialog
          workspaceId={workspaceId}
          target={{ kind: "assets", assetIds: dialogIds }}
          subject={dialogIds.length === 1 ? "this asset" : `these ${dialogIds.length} assets`}
          defaultTitle={
            dialogIds.length === 1
              ? (findCachedAssets(queryClient, workspaceId, dialogIds).get(dialogIds[0]!)?.name ?? "")
              : ""
          }
          opened={reviewing}
          onClose={() => setReviewing(false)}
        />
      </WhenOpened>
      <ShareButtonDialog
        opened={sharing}
        onClose={() => setSharing(false)}
        targets={dialogIds.map((id) => ({ workspaceId, type: "asset" as const, objectId: id, boardId }))}
        names={dialogIds.map((id) => findCachedAssets(queryClient, workspaceId, [id]).get(id)?.name ?? "Asset")}
      />
    </>
  );
});
