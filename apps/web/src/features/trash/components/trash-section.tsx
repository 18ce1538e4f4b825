import { ActionIcon, Avatar, Checkbox, Group, Paper, Table, Text, ThemeIcon, Tooltip } from "@mantine/core";
import {
  IconFile,
  IconFileText,
  IconFolder,
  IconMovie,
  IconMusic,
  IconPhoto,
  IconRestore,
  IconTrashX,
} from "@tabler/icons-react";
import type { TrashItem } from "../api";
import { daysLeft, fullDate, timeAgo } from "../time-ago";

const TYPE_ICONS: Record<string, typeof IconFile> = {
  IMAGE: IconPhoto,
  VIDEO: IconMovie,
  AUDIO: IconMusic,
  DOCUMENT: IconFileText,
};

function ItemIcon({ item }: { item: TrashItem }) {
  if (item.thumbnail_url) return <Avatar src={item.thumbnail_url} alt="" radius="sm" size={36} />;
  const Icon = item.kind === "board" ? IconFolder : (TYPE_ICONS[item.file_type ?? ""] ?? IconFile);
  return (
    <ThemeIcon variant="light" color={item.kind === "board" ? "brand" : "gray"} size={36} radius="sm" aria-hidden>
      <Icon size={18} />
    </ThemeIcon>
  );
}

/**
 * One list of Recently deleted (boards, or assets): who deleted each and when, how long it stays,
 * and (for editors) a checkbox, Restore and Delete forever on each row.
 */
export function TrashSection({
  title,
  items,
  selected,
  editable,
  busy,
  note,
  onToggle,
  onToggleAll,
  onRestore,
  onPurge,
}: {
  title: string;
  items: TrashItem[];
  selected: ReadonlySet<string>;
  editable: boolean;
  busy: boolean;
  /** A line under an item's name (e.g. the board it was deleted with). */
  note?: (item: TrashItem) => string | null;
  onToggle: (id: string) => void;
  onToggleAll: (ids: string[], on: boolean) => void;
  onRestore: (item: TrashItem) => void;
  onPurge: (item: TrashItem) => void;
}) {
  if (items.length === 0) return null;
  const ids = items.map((i) => i.id);
  const picked = ids.filter((id) => selected.has(id)).length;
  return (
    <Paper withBorder radius="md" data-testid={`trash-${title.toLowerCase()}`}>
      {/* Fixed columns, so the boards and assets tables line up. */}
      <Table verticalSpacing={6} highlightOnHover layout="fixed" aria-label={`Deleted ${title.toLowerCase()}`}>
        <Table.Thead>
          <Table.Tr>
            {editable && (
              <Table.Th w={40}>
                <Checkbox
                  size="xs"
                  aria-label={`Select all deleted ${title.toLowerCase()}`}
                  checked={picked === ids.length}
                  indeterminate={picked > 0 && picked < ids.length}
                  onChange={(event) => onToggleAll(ids, event.currentTarget.checked)}
                />
              </Table.Th>
            )}
            <Table.Th>
              {title}{" "}
              <Text span c="dimmed" size="sm" fw={400}>
                ({items.length})
              </Text>
            </Table.Th>
            <Table.Th visibleFrom="sm" w={180}>
              Deleted by
            </Table.Th>
            {/* A phone says when under the name: the name keeps the room. */}
            <Table.Th visibleFrom="sm" w={140}>
              Deleted
            </Table.Th>
            <Table.Th visibleFrom="md" w={130}>
              Kept for
            </Table.Th>
            {editable && <Table.Th w={84} />}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => {
            const extra = note?.(item);
            return (
              <Table.Tr
                key={item.id}
                data-testid="trash-row"
                data-id={item.id}
                bg={selected.has(item.id) ? "var(--mantine-primary-color-light)" : undefined}
              >
                {editable && (
                  <Table.Td>
                    <Checkbox
                      size="xs"
                      aria-label={`Select ${item.name}`}
                      checked={selected.has(item.id)}
                      onChange={() => onToggle(item.id)}
                    />
                  </Table.Td>
                )}
                <Table.Td>
                  <Group gap="sm" wrap="nowrap" miw={0}>
                    <ItemIcon item={item} />
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" fw={500} truncate title={item.name}>
                        {item.name}
                      </Text>
                      {extra && (
                        <Text size="xs" c="dimmed" truncate>
                          {extra}
                        </Text>
                      )}
                      <Text size="xs" c="dimmed" hiddenFrom="sm">
                        Deleted {timeAgo(item.deleted_at)}
                      </Text>
                    </div>
                  </Group>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text size="sm" truncate>
                    {item.deleted_by?.name ?? "Unknown"}
                  </Text>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Tooltip label={fullDate(item.deleted_at)} openDelay={300}>
                    <Text size="sm" component="time" dateTime={item.deleted_at}>
                      {timeAgo(item.deleted_at)}
                    </Text>
                  </Tooltip>
                </Table.Td>
                <Table.Td visibleFrom="md">
                  <Text size="sm" c="dimmed" title={`Deleted forever on ${fullDate(item.purge_at)}`}>
                    {daysLeft(item.purge_at)} more day{daysLeft(item.purge_at) === 1 ? "" : "s"}
                  </Text>
                </Table.Td>
                {editable && (
                  <Table.Td>
                    <Group gap={2} wrap="nowrap" justify="flex-end">
                      <Tooltip label="Restore" openDelay={300}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={`Restore ${item.name}`}
                          onClick={() => onRestore(item)}
                          disabled={busy}
                        >
                          <IconRestore size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Delete forever" openDelay={300}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Delete ${item.name} forever`}
                          onClick={() => onPurge(item)}
                          disabled={busy}
                        >
                          <IconTrashX size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
