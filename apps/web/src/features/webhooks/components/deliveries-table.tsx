import type { WebhookDelivery } from "@hangar/contract";
import { Badge, Box, Button, Code, Group, Paper, SimpleGrid, Stack, Table, Text, UnstyledButton } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import type { ReactNode } from "react";
import { moment } from "../events";
import { DeliveryBadge } from "./state-badges";

const PHONE = "(max-width: 47.99em)";

/** The answer's code, or what happened instead ("—" when no attempt was made yet). */
const responseCell = (d: WebhookDelivery) =>
  d.response_status !== null ? (
    <Text size="sm" ff="monospace">
      {d.response_status}
    </Text>
  ) : (
    <Text size="sm" c="dimmed">
      {d.attempts === 0 ? "—" : "No answer"}
    </Text>
  );

const COLUMNS: { header: string; cell(d: WebhookDelivery): ReactNode }[] = [
  { header: "Status", cell: (d) => <DeliveryBadge delivery={d} /> },
  { header: "Response", cell: responseCell },
  {
    header: "Duration",
    cell: (d) => (
      <Text size="sm" c="dimmed">
        {d.duration_ms !== null ? `${d.duration_ms} ms` : "—"}
      </Text>
    ),
  },
  { header: "Attempts", cell: (d) => <Text size="sm">{d.attempts}</Text> },
  {
    header: "Time",
    cell: (d) => (
      <Text size="sm" c="dimmed">
        {moment(d.last_attempt_at ?? d.created_at)}
      </Text>
    ),
  },
];

/** The event's type, with Test and Redelivery marks. */
function EventCell({ d }: { d: WebhookDelivery }) {
  return (
    <Group gap={6} wrap="wrap">
      <Code>{d.type}</Code>
      {d.is_test && (
        <Badge size="xs" variant="outline" color="gray">
          Test
        </Badge>
      )}
      {d.redelivery_of && (
        <Badge size="xs" variant="outline" color="blue">
          Redelivery
        </Badge>
      )}
    </Group>
  );
}

/**
 * An endpoint's delivery log: a table on a desktop, one card each on a phone. Each delivery opens
 * its details (the body sent, the answer, Redeliver).
 */
export function DeliveriesTable({
  deliveries,
  onOpen,
}: {
  deliveries: readonly WebhookDelivery[];
  onOpen(delivery: WebhookDelivery): void;
}) {
  const phone = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });
  if (phone)
    return (
      <Stack gap="xs" data-testid="deliveries-table">
        {deliveries.map((d) => (
          <UnstyledButton
            key={d.id}
            onClick={() => onOpen(d)}
            aria-label={`Details of ${d.type} at ${moment(d.last_attempt_at ?? d.created_at)}`}
          >
            <Paper withBorder radius="md" p="sm" data-testid="delivery-row">
              <EventCell d={d} />
              <SimpleGrid cols={2} spacing="sm" verticalSpacing="xs" mt="xs">
                {COLUMNS.map((c) => (
                  <Stack key={c.header} gap={2} miw={0}>
                    <Text size="xs" c="dimmed" fw={600}>
                      {c.header}
                    </Text>
                    <Box fz="sm">{c.cell(d)}</Box>
                  </Stack>
                ))}
              </SimpleGrid>
            </Paper>
          </UnstyledButton>
        ))}
      </Stack>
    );
  return (
    <Paper withBorder radius="lg" style={{ overflow: "hidden" }}>
      <Table.ScrollContainer minWidth={820}>
        <Table verticalSpacing="xs" horizontalSpacing="md" highlightOnHover data-testid="deliveries-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Event</Table.Th>
              {COLUMNS.map((c) => (
                <Table.Th key={c.header}>{c.header}</Table.Th>
              ))}
              <Table.Th w={90} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {deliveries.map((d) => (
              <Table.Tr key={d.id} data-testid="delivery-row">
                <Table.Td>
                  <EventCell d={d} />
                </Table.Td>
                {COLUMNS.map((c) => (
                  <Table.Td key={c.header}>{c.cell(d)}</Table.Td>
                ))}
                <Table.Td>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    onClick={() => onOpen(d)}
                    aria-label={`Details of ${d.type} at ${moment(d.last_attempt_at ?? d.created_at)}`}
                  >
                    Details
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
