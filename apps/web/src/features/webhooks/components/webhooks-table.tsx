import type { Webhook } from "@hangar/contract";
import {
  Anchor,
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
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { LastDelivery, StateBadge } from "./state-badges";

/** Phones (below Mantine's `sm`) get one card per endpoint instead of a table wider than the screen. */
const PHONE = "(max-width: 47.99em)";
const SHOWN_EVENTS = 3;

export interface WebhooksTableProps {
  hooks: readonly Webhook[];
  /** The endpoint's own page (its log). */
  hrefOf(hook: Webhook): string;
  /** Its actions (edit, enable, delete), in the row's last cell. */
  actions(hook: Webhook): ReactNode;
}

const COLUMNS: { header: string; cell(hook: Webhook): ReactNode }[] = [
  { header: "Events", cell: (hook) => <Events hook={hook} /> },
  { header: "Status", cell: (hook) => <StateBadge hook={hook} /> },
  { header: "Last delivery", cell: (hook) => <LastDelivery hook={hook} /> },
];

/** The workspace's endpoints: a table on a desktop, one card each on a phone. */
export function WebhooksTable(props: WebhooksTableProps) {
  const phone = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });
  if (phone)
    return (
      <Stack gap="xs" data-testid="webhooks-table">
        {props.hooks.map((hook) => (
          <Paper key={hook.id} withBorder radius="md" p="sm" data-testid="webhook-row">
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
              <Target hook={hook} href={props.hrefOf(hook)} />
              {props.actions(hook)}
            </Group>
            <SimpleGrid cols={1} spacing="xs" mt="xs">
              {COLUMNS.map((c) => (
                <Stack key={c.header} gap={2} miw={0}>
                  <Text size="xs" c="dimmed" fw={600}>
                    {c.header}
                  </Text>
                  <Box fz="sm">{c.cell(hook)}</Box>
                </Stack>
              ))}
            </SimpleGrid>
          </Paper>
        ))}
      </Stack>
    );
  return (
    <Paper withBorder radius="lg" style={{ overflow: "hidden" }}>
      <Table.ScrollContainer minWidth={860}>
        <Table verticalSpacing="sm" horizontalSpacing="md" data-testid="webhooks-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Endpoint</Table.Th>
              {COLUMNS.map((c) => (
                <Table.Th key={c.header}>{c.header}</Table.Th>
              ))}
              <Table.Th w={140}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.hooks.map((hook) => (
              <Table.Tr key={hook.id} data-testid="webhook-row">
                <Table.Td maw={360}>
                  <Target hook={hook} href={props.hrefOf(hook)} />
                </Table.Td>
                {COLUMNS.map((c) => (
                  <Table.Td key={c.header}>{c.cell(hook)}</Table.Td>
                ))}
                <Table.Td>{props.actions(hook)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

/** The URL (a link to the endpoint's page) and its description under it. */
function Target({ hook, href }: { hook: Webhook; href: string }) {
  return (
    <Stack gap={2} miw={0}>
      <Anchor component={Link} to={href} size="sm" fw={600} ff="monospace" style={{ overflowWrap: "anywhere" }}>
        {hook.url}
      </Anchor>
      {hook.description && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
          {hook.description}
        </Text>
      )}
    </Stack>
  );
}

/** The first few events, and how many more (all of them named in a tooltip). */
function Events({ hook }: { hook: Webhook }) {
  const more = hook.events.length - SHOWN_EVENTS;
  return (
    <Group gap={4}>
      {hook.events.slice(0, SHOWN_EVENTS).map((e) => (
        <Badge key={e} size="sm" variant="light" color="blue" tt="none">
          {e}
        </Badge>
      ))}
      {more > 0 && (
        <Tooltip label={hook.events.slice(SHOWN_EVENTS).join(", ")} multiline w={260} withArrow>
          <Badge size="sm" variant="outline" color="gray" tt="none" tabIndex={0}>
            +{more} more
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}
