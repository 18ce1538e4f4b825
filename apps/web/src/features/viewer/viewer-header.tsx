import { type Asset, BOARD_REQUIRED, SHARE_MESSAGES } from "@hangar/contract";
import { ActionIcon, Box, Button, Group, Modal, Text, Tooltip } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { IconArrowLeft, IconDownload, IconPhotoSearch, IconShare, IconX } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useNavigate } from "react-router-dom";
import { hasPicture, similarPath } from "../../entities/asset";
import { notifyError } from "../../lib/notify";
import { RightsBadge } from "../rights";
import type { SharedViewerOptions } from "./viewer-types";

/**
 * The viewer's header (spec 02 §2): name and current board, Find similar (issue 32), Share, Download
 * and Close; in a shared view no board name, no Find similar, no Share, and the product logo instead
 * of Close (Back inside a shared board).
 */
export function ViewerHeader(props: {
  title: string;
  asset: Asset | undefined;
  shared: SharedViewerOptions | null;
  boardId: string | null;
  boardName?: string | null;
  /** The version menu ("v3 ▾", issue 29), beside the name. */
  versionMenu?: ReactNode;
  /** "Request review" (issue 30), for an editor in the workspace (not in a shared view). */
  reviewAction?: ReactNode;
  downloading: boolean;
  onDownload(asset: Asset): void;
  onShare(): void;
  onClose(): void;
}) {
  const { title, asset, shared, boardId, boardName, downloading, onDownload, onShare, onClose } = props;
  // Mantine's `xs`, as Download's two forms below.
  const wide = useMediaQuery("(min-width: 36em)", true, { getInitialValueInEffect: false });
  const navigate = useNavigate();
  return (
    <Group
      // The dialog's own bar, not a page banner beside the app's header (axe: one banner a page).
      component="div"
      h={56}
      px="md"
      gap="sm"
      wrap="nowrap"
      style={{ borderBottom: "1px solid var(--mantine-color-dark-4)", flexShrink: 0 }}
    >
      {shared?.canClose && (
        <Tooltip label="Back (Esc)">
          <ActionIcon variant="subtle" color="gray.0" size="lg" aria-label="Back" onClick={onClose}>
            <IconArrowLeft size={20} />
          </ActionIcon>
        </Tooltip>
      )}
      <Box style={{ minWidth: 0, flex: 1 }}>
        <Modal.Title>
          <Text fw={650} truncate="end" data-testid="viewer-title">
            {title}
          </Text>
        </Modal.Title>
        {!shared && (
          <Text size="xs" c="gray.5" truncate="end" data-testid="viewer-board">
            {boardId ? (boardName ?? "") : "All Assets & Files"}
          </Text>
        )}
      </Box>
      {!shared && asset && (
        <Box visibleFrom="xs">
          <RightsBadge asset={asset} />
        </Box>
      )}
      {props.versionMenu}
      {!shared && props.reviewAction}
      {!shared && asset && hasPicture(asset) && (
        <Tooltip label="Find similar">
          <ActionIcon
            variant="subtle"
            color="gray.0"
            size="lg"
            aria-label="Find similar"
            // All assets filtered to what looks like it: the viewer closes as the address leaves it.
            onClick={() => navigate(similarPath(asset.workspace_id, asset.id))}
            data-testid="viewer-find-similar"
          >
            <IconPhotoSearch size={20} />
          </ActionIcon>
        </Tooltip>
      )}
      {!shared && asset?.abilities.share && (
        <Button
          variant="light"
          color="gray"
          size="compact-sm"
          leftSection={wide ? <IconShare size={16} /> : undefined}
          onClick={() => {
            // Spec 01 §5: an asset is shared in a board; from All Assets & Files there is none.
            if (!boardId) notifyError(`${SHARE_MESSAGES.openFailed}${BOARD_REQUIRED}`);
            else onShare();
          }}
          data-testid="viewer-share"
          // On a phone the icon alone: the asset's name needs the room more (the name stays "Share").
          aria-label="Share"
          px={wide ? undefined : 6}
        >
          {wide ? "Share" : <IconShare size={16} />}
        </Button>
      )}
      {asset?.abilities.download && (
        <Tooltip label={`Download ${asset.name}`}>
          <Button
            variant="light"
            color="gray"
            size="compact-sm"
            leftSection={<IconDownload size={16} />}
            loading={downloading}
            onClick={() => onDownload(asset)}
            data-testid="viewer-download"
            visibleFrom="xs"
          >
            Download
          </Button>
        </Tooltip>
      )}
      {asset?.abilities.download && (
        <ActionIcon
          variant="subtle"
          color="gray.0"
          aria-label="Download"
          hiddenFrom="xs"
          onClick={() => onDownload(asset)}
        >
          <IconDownload size={18} />
        </ActionIcon>
      )}
      {shared ? (
        shared.logo
      ) : (
        <Tooltip label="Close (Esc)">
          <ActionIcon variant="subtle" color="gray.0" size="lg" aria-label="Close viewer" onClick={onClose}>
            <IconX size={20} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
