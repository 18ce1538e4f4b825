import {
  ActionIcon,
  Badge,
  Box,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { IconKeyOff } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { type KeyState, keyState } from "../scopes";

/** Phones (below Mantine's `sm`) get one card per row instead of a table wider than the screen. */
const PHONE = "(max-width: 47.99em)";
export const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
export const momentFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

const STATE_COLOR: Record<KeyState, string> = { active: "green", expired: "orange", revoked: "gray" };
const STATE_LABEL: Record<KeyState, string> = { active: "Active", expired: "Expired", revoked: "Revoked" };

/** What every bearer secret's row has: API keys and personal access tokens alike. */
export interface SecretRow {
  id: string;
  name: string;
  revoked_at: string | null;
  expires_at: string | null;
}

/** A column: its header and what a row shows under it (the name comes first, outside this list). */
export interface SecretColumn<T> {
  header: string;
  cell(row: T): ReactNode;
  /** Spans the card's width on a phone (a list of scopes). */
  wide?: boolean;
}

export interface SecretsTableProps<T extends SecretRow> {
  rows: readonly T[];
  columns: readonly SecretColumn<T>[];
  /** The row being revoked, if any (its button spins). */
  revokingId: string | null;
  onRevoke(row: T): void;
  /** `api-key` or `personal-token`: test ids `${testId}s-table`, `${testId}-row`, `${testId}-state`. */
  testId: string;
  /** "key" or "token", for the Revoke button's tooltip. */
  noun: string;
  minWidth: number;
  /** A dimmed line under the name on a desktop (where a narrow page has no room for its own column). */
  nameNote?(row: T): ReactNode;
}

/**
 * Bearer secrets (issue 36: a workspace's API keys, a person's tokens): a table on a desktop, one
 * card a row on a phone (the same cells under their headers, so nothing scrolls sideways). Live ones
 * have a Revoke button.
 */
export function SecretsTable<T extends SecretRow>(props: SecretsTableProps<T>) {
  const phone = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });
  if (phone)
    return (
      <Stack gap="xs" data-testid={`${props.testId}s-table`}>
        {props.rows.map((row) => (
          <SecretCard key={row.id} row={row} {...props} />
        ))}
      </Stack>
    );
  return (
    <Paper withBorder radius="lg" style={{ overflow: "hidden" }}>
      <Table.ScrollContainer minWidth={props.minWidth}>
        <Table verticalSpacing="sm" horizontalSpacing="md" data-testid={`${props.testId}s-table`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              {props.columns.map((c) => (
                <Table.Th key={c.header}>{c.header}</Table.Th>
              ))}
              <Table.Th w={60}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.rows.map((row) => (
              <Table.Tr key={row.id} data-testid={`${props.testId}-row`}>
                <Table.Td>
                  <Text size="sm" fw={600} style={{ overflowWrap: "anywhere" }}>
                    {row.name}
                  </Text>
                  {props.nameNote?.(row)}
                </Table.Td>
                {props.columns.map((c) => (
                  <Table.Td key={c.header}>{c.cell(row)}</Table.Td>
                ))}
                <Table.Td>
                  <RevokeButton row={row} {...props} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

type RowProps<T extends SecretRow> = SecretsTableProps<T> & { row: T };

/** A row on a phone: its name and Revoke button, then each column under its header. */
function SecretCard<T extends SecretRow>(props: RowProps<T>) {
  const { row } = props;
  return (
    <Paper withBorder radius="md" p="sm" data-testid={`${props.testId}-row`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={0} miw={0}>
          <Text size="sm" fw={600} style={{ overflowWrap: "anywhere" }}>
            {row.name}
          </Text>
          {props.nameNote?.(row)}
        </Stack>
        <RevokeButton {...props} />
      </Group>
      <SimpleGrid cols={2} spacing="sm" verticalSpacing="xs" mt="xs">
        {props.columns.map((c) => (
          <Stack key={c.header} gap={2} miw={0} style={c.wide ? { gridColumn: "1 / -1" } : undefined}>
            <Text size="xs" c="dimmed" fw={600}>
              {c.header}
            </Text>
            <Box fz="sm">{c.cell(row)}</Box>
          </Stack>
        ))}
      </SimpleGrid>
    </Paper>
  );
}

export function ScopeBadges({ scopes, all }: { scopes: readonly string[]; all?: string }) {
  return (
    <Group gap={4}>
      {scopes.map((scope) => (
        <Badge key={scope} size="sm" variant="light" color={scope === "admin" ? "red" : "blue"} tt="none">
          {scope === "admin" && all ? all : scope}
        </Badge>
      ))}
    </Group>
  );
}

export function StateBadge({ row, testId }: { row: SecretRow; testId: string }) {
  const state = keyState(row);
  return (
    <Badge variant="light" color={STATE_COLOR[state]} data-testid={`${testId}-state`}>
      {STATE_LABEL[state]}
    </Badge>
  );
}

/** A value in dimmed text, or `empty` when there is none. */
export function Dim({ text, empty = "" }: { text: string | null; empty?: string }) {
  return (
    <Text size="sm" c="dimmed">
      {text ?? empty}
    </Text>
  );
}

function RevokeButton<T extends SecretRow>({ row, revokingId, onRevoke, noun }: RowProps<T>) {
  if (row.revoked_at) return null;
  return (
    <Tooltip label={`Revoke ${noun}`} withArrow>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={`Revoke ${row.name}`}
        loading={revokingId === row.id}
        onClick={() => onRevoke(row)}
      >
        <IconKeyOff size={18} />
      </ActionIcon>
    </Tooltip>
  );
}
