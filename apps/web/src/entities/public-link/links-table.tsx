import {
  ActionIcon,
  Box,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { IconCopy, IconLock } from "@tabler/icons-react";
import { createContext, type ReactNode, useContext } from "react";
import { copyLink } from "./link-utils";

/** One column of a links table: its header and what a link shows under it. */
export interface LinkColumn<T> {
  header: string;
  cell(link: T): ReactNode;
}

/**
 * What one link's row does, from the kind's own calls (a hook: each row calls it once): the Active
 * switch, copying the link's address and deleting it, with the names screen readers read for each.
 */
export interface LinkRowActions {
  active: boolean;
  /** The switch's accessible name ("Disable the link of …"). */
  activeLabel: string;
  updating: boolean;
  setActive(active: boolean): void;
  url: string;
  copyLabel: string;
  deleteLabel: string;
  deleteIcon: ReactNode;
  deleting: boolean;
  remove(): void;
}

export interface LinksTableProps<T> {
  links: readonly T[];
  keyOf(link: T): string;
  /** The table's test id; each row's (or, on a phone, each card's) is `rowTestId`. */
  testId: string;
  rowTestId: string;
  /** Below this width the table scrolls sideways inside its own box. */
  minWidth: number;
  /** The first column, what the link opens (a `LinkSubject`), then the kind's own columns. */
  columns: readonly [LinkColumn<T>, ...LinkColumn<T>[]];
  useRowActions(link: T): LinkRowActions;
}

/** Phones (below Mantine's `sm`) get one card per link instead of a table wider than the screen. */
const PHONE = "(max-width: 47.99em)";
/** Inside a phone's card a link's subject line wraps instead of being cut. */
const InCard = createContext(false);

/**
 * The review table of a kind of public link (Settings → Share links: share links, upload links): the
 * kind's columns, then "Active" and the row's copy and delete buttons. On a phone each link is a card
 * with the same cells under their headers, so nothing scrolls sideways.
 */
export function LinksTable<T>(props: LinksTableProps<T>) {
  const phone = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });
  if (phone)
    return (
      <InCard.Provider value>
        <Stack gap="xs" data-testid={props.testId}>
          {props.links.map((link) => (
            <LinkCard key={props.keyOf(link)} link={link} {...props} />
          ))}
        </Stack>
      </InCard.Provider>
    );
  return (
    <Table.ScrollContainer minWidth={props.minWidth}>
      <Table verticalSpacing="xs" data-testid={props.testId}>
        <Table.Thead>
          <Table.Tr>
            {props.columns.map((c) => (
              <Table.Th key={c.header}>{c.header}</Table.Th>
            ))}
            <Table.Th>Active</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.links.map((link) => (
            <LinkRow key={props.keyOf(link)} link={link} {...props} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

type RowProps<T> = LinksTableProps<T> & { link: T };

function LinkRow<T>({ link, columns, rowTestId, useRowActions }: RowProps<T>) {
  const actions = useRowActions(link);
  return (
    <Table.Tr data-testid={rowTestId}>
      {columns.map((c) => (
        <Table.Td key={c.header}>{c.cell(link)}</Table.Td>
      ))}
      <Table.Td>
        <ActiveSwitch actions={actions} />
      </Table.Td>
      <Table.Td>
        <RowButtons actions={actions} />
      </Table.Td>
    </Table.Tr>
  );
}

function LinkCard<T>({ link, columns: [subject, ...rest], rowTestId, useRowActions }: RowProps<T>) {
  const actions = useRowActions(link);
  return (
    <Paper withBorder radius="md" p="sm" data-testid={rowTestId}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Box miw={0}>{subject.cell(link)}</Box>
        <RowButtons actions={actions} />
      </Group>
      <SimpleGrid cols={2} spacing="sm" verticalSpacing="xs" mt="xs">
        {rest.map((c) => (
          <Stack key={c.header} gap={2} miw={0}>
            <Text size="xs" c="dimmed" fw={600}>
              {c.header}
            </Text>
            <Box fz="sm">{c.cell(link)}</Box>
          </Stack>
        ))}
        <Stack gap={2}>
          <Text size="xs" c="dimmed" fw={600}>
            Active
          </Text>
          <ActiveSwitch actions={actions} />
        </Stack>
      </SimpleGrid>
    </Paper>
  );
}

function ActiveSwitch({ actions: a }: { actions: LinkRowActions }) {
  return (
    <Switch
      checked={a.active}
      aria-label={a.activeLabel}
      disabled={a.updating}
      onChange={(e) => a.setActive(e.currentTarget.checked)}
    />
  );
}

function RowButtons({ actions: a }: { actions: LinkRowActions }) {
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label="Copy link">
        <ActionIcon variant="subtle" aria-label={a.copyLabel} onClick={() => void copyLink(a.url)}>
          <IconCopy size={16} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Delete link">
        <ActionIcon variant="subtle" color="red" aria-label={a.deleteLabel} loading={a.deleting} onClick={a.remove}>
          {a.deleteIcon}
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/**
 * A link's first cell: what it opens, in bold, and a dimmed line about it (cut to the column in a
 * table, whole in a phone's card); a lock when a password guards it (with its name as a tooltip where
 * the kind shows one).
 */
export function LinkSubject(props: { name: string; detail: string; locked: boolean; lockTooltip?: boolean }) {
  const inCard = useContext(InCard);
  const lock = <IconLock size={14} aria-label="Password protected" />;
  return (
    <Group gap={6} wrap="nowrap">
      {props.locked && (props.lockTooltip ? <Tooltip label="Password protected">{lock}</Tooltip> : lock)}
      <Stack gap={0} miw={0}>
        <Text size="sm" fw={600} truncate="end">
          {props.name}
        </Text>
        <Text size="xs" c="dimmed" truncate={inCard ? undefined : "end"}>
          {props.detail}
        </Text>
      </Stack>
    </Group>
  );
}

/** "Never" (dimmed) or the moment, in the browser's locale: the last-used columns. */
export function LinkMoment({ at }: { at: string | null }) {
  return (
    <Text size="sm" c={at ? undefined : "dimmed"}>
      {at ? new Date(at).toLocaleString() : "Never"}
    </Text>
  );
}
