import { Menu } from "@mantine/core";
import {
  IconChecklist,
  IconDownload,
  IconFilterBolt,
  IconFilterEdit,
  IconFolder,
  IconFolderOpen,
  IconFolderSymlink,
  IconInbox,
  IconPencil,
  IconShare,
  IconTrash,
  type TablerIcon,
} from "@tabler/icons-react";

/** What a board's menu offers, wherever it is opened (the boards tree's row, the board page's ⋯). */
export type BoardMenuAction =
  | "rename"
  | "move"
  | "share"
  | "request"
  | "review"
  | "download"
  | "delete"
  | "edit-filter";

/** A smart board (issue 33) has its own icon wherever the tree or its page shows it. */
export function BoardTreeIcon({
  smart,
  open,
  size = 16,
  className,
}: {
  smart: boolean;
  open?: boolean;
  size?: number;
  className?: string;
}) {
  const Icon = smart ? IconFilterBolt : open ? IconFolderOpen : IconFolder;
  return (
    <Icon
      size={size}
      stroke={1.7}
      className={className}
      aria-hidden
      data-smart={smart || undefined}
      color={smart ? "var(--mantine-color-violet-6)" : undefined}
    />
  );
}

const ITEMS: ReadonlyArray<{ action: BoardMenuAction; label: string; icon: TablerIcon; smart?: boolean }> = [
  { action: "edit-filter", label: "Edit filter", icon: IconFilterEdit, smart: true },
  { action: "rename", label: "Rename", icon: IconPencil },
  { action: "move", label: "Move to…", icon: IconFolderSymlink },
  { action: "share", label: "Share…", icon: IconShare },
  // Nothing can be filed in a smart board, so neither offers itself there.
  { action: "request", label: "Request files…", icon: IconInbox, smart: false },
  // Issue 30: every asset filed in the board at that moment.
  { action: "review", label: "Request review…", icon: IconChecklist, smart: false },
  { action: "download", label: "Download…", icon: IconDownload },
];

/**
 * A board's actions as menu items, one list for every place a board's menu opens (issue 35: the
 * board page's menu lacked "Request files…" and Share). Goes inside a Mantine `Menu.Dropdown`.
 */
export function BoardMenuItems({
  onAction,
  smart = false,
}: {
  onAction(action: BoardMenuAction): void;
  smart?: boolean;
}) {
  return (
    <>
      {ITEMS.filter((item) => item.smart === undefined || item.smart === smart).map(({ action, label, icon: Icon }) => (
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
