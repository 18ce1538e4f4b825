import type { Webhook, WebhookDelivery } from "@hangar/contract";
import { Badge, Group, Text } from "@mantine/core";
import { DELIVERY_COLOR, deliverySummary, moment, STATE_COLOR, STATE_LABEL } from "../events";

export function StateBadge({ hook }: { hook: Pick<Webhook, "state"> }) {
  return (
    <Badge variant="light" color={STATE_COLOR[hook.state]} data-testid="webhook-state">
      {STATE_LABEL[hook.state]}
    </Badge>
  );
}

export function DeliveryBadge({ delivery }: { delivery: Pick<WebhookDelivery, "status" | "attempts"> }) {
  return (
    <Badge variant="light" color={DELIVERY_COLOR[delivery.status]} tt="none" data-testid="delivery-status">
      {deliverySummary(delivery)}
    </Badge>
  );
}

/** An endpoint's last delivery: its status, the answer's code and when; "None yet" before any. */
export function LastDelivery({ hook }: { hook: Pick<Webhook, "last_delivery"> }) {
  const last = hook.last_delivery;
  if (!last)
    return (
      <Text size="sm" c="dimmed">
        None yet
      </Text>
    );
  return (
    <Group gap={6} wrap="wrap">
      <DeliveryBadge delivery={{ status: last.status, attempts: 0 }} />
      {last.response_status !== null && (
        <Text size="sm" ff="monospace">
          {last.response_status}
        </Text>
      )}
      <Text size="sm" c="dimmed">
        {moment(last.at)}
      </Text>
    </Group>
  );
}
