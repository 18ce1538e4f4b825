import type { ApiKey } from "@hangar/contract";
import {
  ActionIcon,
  Badge,
  Box,
  Code,
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

/** Phones (below Mantine's `sm`) get one card per key instead of a table wider than the screen. */
const PHONE = "(max-width: 47.99em)";
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const momentFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

const STATE_COLOR: Record<KeyState, string> = { active: "green", expired: "orange", revoked: "gray" };
const STATE_LABEL: Record<KeyState, string> = { active: "Active", expired: "Expired", revoked: "Revoked" };

export interface ApiKeysTableProps {
  keys: readonly ApiKey[];
  /** The key being revoked, if any (its button spins). */
  revokingId: string | null;
  onRevoke(key: ApiKey): void;
}

/** A column: its header and what a key shows under it (the name comes first, outside this list). */
const COLUMNS: { header: string; cell(key: ApiKey): ReactNode }[] = [
  { header: "Prefix", cell: (key) => <Code>{key.prefix}…</Code> },
  { header: "Scopes", cell: (key) => <Scopes keyRow={key} /> },
  { header: "Created by", cell: (key) => <Dim text={key.created_by?.name ?? null} empty="Deleted user" /> },
  { header: "Created", cell: (key) => <Dim text={dateFormat.format(new Date(key.created_at))} /> },
  {
    header: "Last used",
    cell: (key) => <Dim text={key.last_used_at && momentFormat.format(new Date(key.last_used_at))} empty="Never" />,
  },
  {
    header: "Expires",
    cell: (key) => <Dim text={key.expires_at && dateFormat.format(new Date(key.expires_at))} empty="Never" />,
  },
  { header: "State", cell: (key) => <StateBadge keyRow={key} /> },
];

/**
 * The workspace's API keys: a table on a desktop, one card a key on a phone (the same cells under
 * their headers, so nothing scrolls sideways). Live keys have a Revoke button.
 */
export function ApiKeysTable(props: ApiKeysTableProps) {
  const phone = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });
  if (phone)
    return (
      <Stack gap="xs" data-testid="api-keys-table">
        {props.keys.map((key) => (
          <KeyCard key={key.id} keyRow={key} {...props} />
        ))}
      </Stack>
    );
  return (
    <Paper withBorder radius="lg" style={{ overflow: "hidden" }}>
      <Table.ScrollContainer minWidth={980}>
        <Table verticalSpacing="sm" horizontalSpacing="md" data-testid="api-keys-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              {COLUMNS.map((c) => (
                <Table.Th key={c.header}>{c.header}</Table.Th>
              ))}
              <Table.Th w={60}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.keys.map((key) => (
              <Table.Tr key={key.id} data-testid="api-key-row">
                <Table.Td>
                  <Text size="sm" fw={600} style={{ overflowWrap: "anywhere" }}>
                    {key.name}
                  </Text>
                </Table.Td>
                {COLUMNS.map((c) => (
                  <Table.Td key={c.header}>{c.cell(key)}</Table.Td>
                ))}
                <Table.Td>
                  <RevokeButton keyRow={key} {...props} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

type RowProps = ApiKeysTableProps & { keyRow: ApiKey };

/** A key on a phone: its name and Revoke button, then each column under its header. */
function KeyCard(props: RowProps) {
  const key = props.keyRow;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="api-key-row">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Text size="sm" fw={600} miw={0} style={{ overflowWrap: "anywhere" }}>
          {key.name}
        </Text>
        <RevokeButton {...props} />
      </Group>
      <SimpleGrid cols={2} spacing="sm" verticalSpacing="xs" mt="xs">
        {COLUMNS.map((c) => (
          <Stack key={c.header} gap={2} miw={0} style={c.header === "Scopes" ? { gridColumn: "1 / -1" } : undefined}>
            <Text size="xs" c="dimmed" fw={600}>
              {c.header}
            </Text>
            <Box fz="sm">{c.cell(key)}</Box>
          </Stack>
        ))}
      </SimpleGrid>
    </Paper>
  );
}

function Scopes({ keyRow }: { keyRow: ApiKey }) {
  return (
    <Group gap={4}>
      {keyRow.scopes.map((scope) => (
        <Badge key={scope} size="sm" variant="light" color={scope === "admin" ? "red" : "blue"} tt="none">
          {scope}
        </Badge>
      ))}
    </Group>
  );
}

function StateBadge({ keyRow }: { keyRow: ApiKey }) {
  const state = keyState(keyRow);
  return (
    <Badge variant="light" color={STATE_COLOR[state]} data-testid="api-key-state">
      {STATE_LABEL[state]}
    </Badge>
  );
}

/** A value in dimmed text, or `empty` when there is none. */
function Dim({ text, empty = "" }: { text: string | null; empty?: string }) {
  return (
    <Text size="sm" c="dimmed">
      {text ?? empty}
    </Text>
  );
}

function RevokeButton({ keyRow, revokingId, onRevoke }: RowProps) {
  if (keyRow.revoked_at) return null;
  const label = `Revoke ${keyRow.name}`;
  return (
    <Tooltip label="Revoke key" withArrow>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={label}
        loading={revokingId === keyRow.id}
        onClick={() => onRevoke(keyRow)}
      >
        <IconKeyOff size={18} />
      </ActionIcon>
    </Tooltip>
  );
}
