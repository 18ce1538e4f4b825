import type { Asset } from "@hangar/contract";
import { ActionIcon } from "@mantine/core";
import {
  IconDots,
  IconDownload,
  IconFolderMinus,
  IconFolderPlus,
  IconFolderSymlink,
  IconForms,
  IconPencil,
  IconPhotoSearch,
  IconShare,
  IconStar,
  IconStarOff,
  IconTag,
  IconTrash,
  IconUpload,
} from "@tabler/icons-react";
import { type SyntheticEvent, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { hasPicture, similarPath } from "../../../entities/asset";
import { selectionStore } from "../../../entities/workspace";
import { lazyNamed, WhenOpened } from "../../../lib/deferred";
import { Menu } from "../../../lib/lazy-menu";
import { useDownload } from "../../downloads";
import { ShareButtonDialog } from "../../shares";
import { uploadNewVersion } from "../../uploads";
import { useSetFavorite } from "./api";
import type { AssetDialogKind } from "./asset-action-dialogs";
import { useAssetPermissions } from "./use-asset-permissions";

// Fetched the first time a dialog opens: not part of the grid's first load.
const AssetActionDialogs = lazyNamed(() => import("./asset-action-dialogs"), "AssetActionDialogs");

// The menu and its dialogs sit inside a card whose clicks select or open the asset; React events
// bubble through portals, so nothing in here may reach the card.
const stop = (event: SyntheticEvent) => event.stopPropagation();

/**
 * The "…" menu of one asset card: rename (name and description), tags, field, upload a new version,
 * favourite, add to / move to / remove from board, download, find similar (issue 32), delete. Editing entries are absent for a COMMENTER. A move or delete
 * clears the selection (spec 01 §4).
 */
export function AssetCardMenu({
  workspaceId,
  boardId,
  asset,
}: {
  workspaceId: string;
  boardId: string | null;
  asset: Asset;
}) {
  const { canEdit } = useAssetPermissions(workspaceId);
  const favorite = useSetFavorite(workspaceId);
  const download = useDownload(workspaceId);
  const [dialog, setDialog] = useState<AssetDialogKind | null>(null);
  const [sharing, setSharing] = useState(false);
  const versionInput = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const ids = [asset.id];

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: only stops bubbling; the controls inside are the menu's
    <span
      style={{ display: "contents" }}
      onClick={stop}
      onDoubleClick={stop}
      onMouseDown={stop}
      onPointerDown={stop}
      onKeyDown={stop}
    >
      <Menu position="bottom-end" shadow="md" width={200} withinPortal>
        <Menu.Target>
          <ActionIcon
            variant="default"
            size="sm"
            radius="md"
            aria-label={`Actions for ${asset.name}`}
            data-testid="asset-card-menu"
          >
            <IconDots size={14} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {canEdit && (
            <>
              <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => setDialog("edit")}>
                Rename…
              </Menu.Item>
              <Menu.Item leftSection={<IconTag size={14} />} onClick={() => setDialog("tags")}>
                Edit tags…
              </Menu.Item>
              <Menu.Item leftSection={<IconForms size={14} />} onClick={() => setDialog("field")}>
                Edit field…
              </Menu.Item>
              {asset.abilities.edit && (
                <Menu.Item leftSection={<IconUpload size={14} />} onClick={() => versionInput.current?.click()}>
                  Upload new version…
                </Menu.Item>
              )}
            </>
          )}
          <Menu.Item
            leftSection={asset.favorite ? <IconStarOff size={14} /> : <IconStar size={14} />}
            onClick={() => favorite.mutate({ ids, favorite: !asset.favorite })}
          >
            {asset.favorite ? "Remove from favourites" : "Add to favourites"}
          </Menu.Item>
          {canEdit && (
            <>
              <Menu.Divider />
              <Menu.Item leftSection={<IconFolderPlus size={14} />} onClick={() => setDialog("add")}>
                Add to board…
              </Menu.Item>
              <Menu.Item leftSection={<IconFolderSymlink size={14} />} onClick={() => setDialog("move")}>
                Move to board…
              </Menu.Item>
              {boardId && (
                <Menu.Item leftSection={<IconFolderMinus size={14} />} onClick={() => setDialog("remove")}>
                  Remove from board
                </Menu.Item>
              )}
            </>
          )}
          <Menu.Divider />
          {canEdit && (
            <Menu.Item leftSection={<IconShare size={14} />} onClick={() => setSharing(true)}>
              Share…
            </Menu.Item>
          )}
          <Menu.Item
            leftSection={<IconDownload size={14} />}
            disabled={download.isDownloading}
            onClick={() => void download.downloadAsset(asset)}
          >
            Download
          </Menu.Item>
          {hasPicture(asset) && (
            <Menu.Item
              leftSection={<IconPhotoSearch size={14} />}
              onClick={() => navigate(similarPath(workspaceId, asset.id))}
              data-testid="card-find-similar"
            >
              Find similar
            </Menu.Item>
          )}
          {canEdit && (
            <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => setDialog("delete")}>
              Delete
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      {canEdit && (
        <input
          ref={versionInput}
          type="file"
          hidden
          aria-label={`New version of ${asset.name}`}
          data-testid="card-version-input"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            event.currentTarget.value = "";
            if (file) void uploadNewVersion(file, { workspaceId, assetId: asset.id, name: asset.name });
          }}
        />
      )}
      <WhenOpened open={dialog !== null}>
        <AssetActionDialogs
          workspaceId={workspaceId}
          boardId={boardId}
          assetIds={ids}
          asset={asset}
          open={dialog}
          onClose={() => setDialog(null)}
          onMovedOrDeleted={() => selectionStore.setSelectedAssets([])}
        />
      </WhenOpened>
      <ShareButtonDialog
        opened={sharing}
        onClose={() => setSharing(false)}
        targets={[{ workspaceId, type: "asset", objectId: asset.id, boardId }]}
        names={[asset.name]}
      />
    </span>
  );
}
