import type { Asset } from "@hangar/contract";
import { ActionIcon, Badge, Button, Group, Menu, NavLink, Stack, Text } from "@mantine/core";
import { IconDots, IconFolder, IconLayoutGrid, IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { AddToBoardDialog, useRemoveFromBoard } from "../../board-membership";
import { VIEWER_MESSAGES } from "../viewer-constants";

export interface BoardsPanelProps {
  asset: Asset;
  /** The board the viewer was opened in; null: All Assets & Files. */
  currentBoardId: string | null;
  readOnly: boolean;
  /** Makes `boardId` (null: the global view) the current view with this asset open in it. */
  onSwitch(boardId: string | null): void;
}

function CurrentBadge() {
  return (
    <Badge size="xs" variant="light" tt="none">
      {VIEWER_MESSAGES.currentView}
    </Badge>
  );
}

/** The boards the asset is in (spec 02 §2 Asset drawer panels). */
export function BoardsPanel({ asset, currentBoardId, readOnly, onSwitch }: BoardsPanelProps) {
  const remove = useRemoveFromBoard(asset.workspace_id);
  const [adding, setAdding] = useState(false);
  return (
    <Stack gap={4} data-testid="boards-panel">
      <NavLink
        label={VIEWER_MESSAGES.boardsAll}
        leftSection={<IconLayoutGrid size={16} />}
        rightSection={currentBoardId === null ? <CurrentBadge /> : null}
        active={currentBoardId === null}
        onClick={() => onSwitch(null)}
        data-testid="boards-panel-all"
      />
      {asset.boards.length === 0 && (
        <Text size="sm" c="dimmed" px="sm" py={4}>
          This asset is in no board.
        </Text>
      )}
      {asset.boards.map((b) => (
        <Group key={b.id} gap={0} wrap="nowrap" data-testid="boards-panel-board" data-board-id={b.id}>
          <NavLink
            label={b.name}
            leftSection={<IconFolder size={16} />}
            rightSection={currentBoardId === b.id ? <CurrentBadge /> : null}
            active={currentBoardId === b.id}
            onClick={() => onSwitch(b.id)}
            style={{ flex: 1, minWidth: 0 }}
          />
          {!readOnly && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="subtle" color="gray" aria-label={`Board actions for ${b.name}`}>
                  <IconDots size={16} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item
                  color="red"
                  onClick={() => remove.mutate({ ids: [asset.id], boardId: b.id, name: asset.name })}
                >
                  {VIEWER_MESSAGES.removeFromBoard}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      ))}
      {!readOnly && (
        <Button
          variant="light"
          leftSection={<IconPlus size={16} />}
          mt="sm"
          onClick={() => setAdding(true)}
          data-testid="boards-panel-add"
        >
          {VIEWER_MESSAGES.addToBoard}
        </Button>
      )}
      <AddToBoardDialog
        workspaceId={asset.workspace_id}
        assetIds={[asset.id]}
        name={asset.name}
        opened={adding}
        onClose={() => setAdding(false)}
      />
    </Stack>
  );
}
