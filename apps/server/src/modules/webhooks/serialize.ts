import type { Webhook, WebhookDelivery, WebhookDeliveryDetail, WebhookEventType } from "@hangar/contract";
import type { Selectable } from "kysely";
import type { WebhookDeliveriesTable } from "../../db/types-webhooks.ts";
import type { endpointsRepo } from "./repo.ts";

type EndpointRow = NonNullable<Awaited<ReturnType<typeof endpointsRepo.get>>>;
type DeliveryRow = Omit<
  Selectable<WebhookDeliveriesTable>,
  "body" | "claim" | "claimed_until" | "give_up_at" | "workspace_id" | "endpoint_id" | "object_key"
> & {
  body?: string;
};

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

export function toWebhook(r: EndpointRow): Webhook {
  const last = r.last_delivery;
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    events: r.events as WebhookEventType[],
    enabled: r.enabled,
    state: !r.enabled ? "disabled" : r.failing_since ? "failing" : "enabled",
    failing_since: iso(r.failing_since),
    disabled_reason: r.disabled_reason,
    created_by: r.creator_id
      ? {
          id: r.creator_id,
          name: `${r.creator_first_name ?? ""} ${r.creator_last_name ?? ""}`.trim(),
          email: r.creator_email ?? "",
        }
      : null,
    created_at: r.created_at.toISOString(),
    last_delivery: last
      ? {
          status: last.status as WebhookDelivery["status"],
          response_status: last.response_status,
          at: iso(last.at)!,
        }
      : null,
  };
}

export function toDelivery(r: DeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    event_id: r.event_id,
    type: r.type,
    status: r.status,
    attempts: r.attempts,
    response_status: r.response_status,
    response_body: r.response_body,
    error: r.error,
    duration_ms: r.duration_ms,
    created_at: r.created_at.toISOString(),
    last_attempt_at: iso(r.last_attempt_at),
    next_attempt_at: r.status === "pending" ? iso(r.next_attempt_at) : null,
    delivered_at: iso(r.delivered_at),
    is_test: r.is_test,
    redelivery_of: r.redelivery_of,
  };
}

export const toDeliveryDetail = (r: DeliveryRow & { body: string }): WebhookDeliveryDetail => ({
  ...toDelivery(r),
  request_body: r.body,
});
