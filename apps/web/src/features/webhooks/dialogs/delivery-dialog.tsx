import type { WebhookDelivery } from "@hangar/contract";
import { Alert, Button, Code, Group, Loader, Modal, ScrollArea, SimpleGrid, Stack, Text } from "@mantine/core";
import { IconRefresh } from "@tabler/icons-react";
import { errorMessage } from "../../../lib/api-client";
import { notifyError, notifySuccess } from "../../../lib/notify";
import { ErrorState } from "../../../ui/error-state";
import { useDelivery, useRedeliver } from "../api";
import { DeliveryBadge } from "../components/state-badges";
import { moment, prettyJson } from "../events";

/** One fact of a delivery under its label. */
function Fact({ label, wide, children }: { label: string; wide?: boolean; children: React.ReactNode }) {
  return (
    <Stack gap={2} miw={0} style={wide ? { gridColumn: "span 2" } : undefined}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: "anywhere" }}>
        {children}
      </Text>
    </Stack>
  );
}

/**
 * A delivery's details: its event, attempts and times, why it failed, the answer's first 1 KB, the
 * body that was sent, and Redeliver (the same event again now, logged as a delivery of its own).
 */
export function DeliveryDialog({
  workspaceId,
  hookId,
  delivery,
  onClose,
}: {
  workspaceId: string;
  hookId: string;
  delivery: WebhookDelivery | null;
  onClose(): void;
}) {
  const detail = useDelivery(workspaceId, hookId, delivery?.id ?? null);
  const redeliver = useRedeliver(workspaceId, hookId);
  const d = detail.data ?? delivery;
  const send = () =>
    delivery &&
    redeliver.mutate(delivery.id, {
      onSuccess: (r) =>
        r.status === "delivered"
          ? notifySuccess(`Redelivered: the endpoint answered ${r.response_status}`)
          : notifyError(r.error ?? "The endpoint did not take it", "Redelivery failed"),
      onError: (err) => notifyError(errorMessage(err, "Failed to redeliver")),
    });
  return (
    <Modal opened={delivery !== null} onClose={onClose} title="Delivery" centered size="xl">
      {d && (
        <Stack gap="md" data-testid="delivery-dialog">
          <Group justify="space-between" gap="xs">
            <Group gap="xs">
              <Code>{d.type}</Code>
              <DeliveryBadge delivery={d} />
            </Group>
            <Button leftSection={<IconRefresh size={16} />} loading={redeliver.isPending} onClick={send}>
              Redeliver
            </Button>
          </Group>
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm" verticalSpacing="sm">
            <Fact label="Response">{d.response_status ?? "No answer"}</Fact>
            <Fact label="Duration">{d.duration_ms !== null ? `${d.duration_ms} ms` : "—"}</Fact>
            <Fact label="Attempts">{d.attempts}</Fact>
            <Fact label="Created">{moment(d.created_at)}</Fact>
            <Fact label="Last attempt">{moment(d.last_attempt_at) || "—"}</Fact>
            {d.next_attempt_at ? (
              <Fact label="Next attempt">{moment(d.next_attempt_at)}</Fact>
            ) : (
              <Fact label="Delivered">{moment(d.delivered_at) || "—"}</Fact>
            )}
            <Fact label="Event id" wide>
              <Code>{d.event_id}</Code>
            </Fact>
          </SimpleGrid>
          {d.error && (
            <Alert color={d.status === "failed" ? "red" : "orange"} variant="light" title="What went wrong">
              {d.error}
            </Alert>
          )}
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Answer (first 1 KB)
            </Text>
            <ScrollArea.Autosize mah={160} type="auto">
              <Code block data-testid="delivery-response">
                {d.response_body ? prettyJson(d.response_body) : "(empty)"}
              </Code>
            </ScrollArea.Autosize>
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Body sent
            </Text>
            {detail.isPending ? (
              <Loader size="sm" aria-label="Loading the body" />
            ) : detail.isError ? (
              <ErrorState
                message={errorMessage(detail.error, "Failed to fetch the delivery")}
                onRetry={() => detail.refetch()}
                retrying={detail.isFetching}
              />
            ) : (
              <ScrollArea.Autosize mah={320} type="auto">
                <Code block data-testid="delivery-request" style={{ whiteSpace: "pre" }}>
                  {prettyJson(detail.data.request_body)}
                </Code>
              </ScrollArea.Autosize>
            )}
          </Stack>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
