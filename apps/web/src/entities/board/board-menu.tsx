import { Menu } from "@mantine/core";
import {
  IconChecklist,
  IconDownload,
  IconFolderSymlink,
  IconInbox,
  IconPencil,
  IconShare,
  IconTrash,
  type TablerIcon,
} from "@tabler/icons-react";

/** What a board's menu offers, wherever it is opened (the boards tree's row, the board page's ⋯). */
export type BoardMenuAction = "rename" | "move" | "share" | "request" | "review" | "download" | "delete";

const ITEMS: ReadonlyArray<{ action: BoardMenuAction; label: string; icon: TablerIcon }> = [
  { action: "rename", label: "Rename", icon: IconPencil },
  { action: "move", label: "Move to…", icon: IconFolderSymlink },
  { action: "share", label: "Share…", icon: IconShare },
  { action: "request", label: "Request files…", icon: IconInbox },
  // Issue 30: every asset filed in the board at that moment.
  { action: "review", label: "Request review…", icon: IconChecklist },
  { action: "download", label: "Download…", icon: IconDownload },
];

/**
 * A board's actions as menu items, one list for every place a board's menu opens (issue 35: the
 * board page's menu lacked "Request files…" and Share). Goes inside a Mantine `Menu.Dropdown`.
 */
export function BoardMenuItems({ onAction }: { onAction(action: BoardMenuAction): void }) {
  return (
    <>
      {ITEMS.map(({ action, label, icon: Icon }) => (
        <Menu.Item key={action} leftSection={<Icon size={14} />} onClick={() => onAction(action)}>
          {label}
        </Menu.Item>
      ))}
      <Menu.Divider />
      <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => onAction("delete")}>
        Delete
      </Menu.Item>
    </>
  );
}
