import { z } from "zod";

/**
 * Signed webhooks (issue 36): ADMINs register endpoints that hear a workspace's events. Each delivery
 * is a JSON body `{id, type, created_at, workspace_id, data: {object}}` signed with the endpoint's
 * secret (docs/webhooks.md).
 */
export const WEBHOOK_EVENTS = [
  "asset.created",
  "asset.updated",
  "asset.deleted",
  "asset.version_added",
  "asset.processed",
  "comment.created",
  "comment.resolved",
  "review.decided",
  "review.completed",
  "share.created",
  "share.viewed",
  "upload_link.received",
  "member.added",
  "member.removed",
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENTS);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** What "Send test event" sends: no endpoint subscribes to it, every endpoint can receive it. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

/** The events as the settings screen groups them. */
export const WEBHOOK_EVENT_GROUPS: ReadonlyArray<{ label: string; events: readonly WebhookEventType[] }> = [
  {
    label: "Assets",
    events: ["asset.created", "asset.updated", "asset.deleted", "asset.version_added", "asset.processed"],
  },
  { label: "Comments", events: ["comment.created", "comment.resolved"] },
  { label: "Reviews", events: ["review.decided", "review.completed"] },
  { label: "Sharing", events: ["share.created", "share.viewed", "upload_link.received"] },
  { label: "Members", events: ["member.added", "member.removed"] },
];

/** What a signing secret starts with (as Stripe's do), so people and scanners recognise it. */
export const WEBHOOK_SECRET_PREFIX = "whsec_";
/** The headers of every delivery. */
export const WEBHOOK_HEADERS = {
  signature: "Hangar-Signature",
  eventId: "Hangar-Event-Id",
  timestamp: "Hangar-Timestamp",
} as const;
/** Endpoints one workspace may have. */
export const WEBHOOK_LIMIT = 20;

export const WEBHOOK_MESSAGES = {
  limit: `A workspace can have at most ${WEBHOOK_LIMIT} webhook endpoints.`,
  url: "Enter an http:// or https:// URL.",
  credentials: "The URL may not contain a user name or password.",
  disabled: "This endpoint is disabled: enable it before sending events to it.",
};

export const WebhookParams = z.object({ id: z.uuid(), hookId: z.uuid() });
export const WebhookDeliveryParams = WebhookParams.extend({ deliveryId: z.uuid() });

const url = z
  .string()
  .trim()
  .min(1, "URL is required")
  .max(2000, "The URL is too long")
  .pipe(z.url({ protocol: /^https?$/, message: WEBHOOK_MESSAGES.url }))
  .refine((v) => {
    const u = URL.parse(v);
    return !u || (u.username === "" && u.password === "");
  }, WEBHOOK_MESSAGES.credentials);

const events = z
  .array(WebhookEventType)
  .min(1, "Choose at least one event")
  .max(WEBHOOK_EVENTS.length)
  .transform((e) => WEBHOOK_EVENTS.filter((x) => e.includes(x)));

const description = z.string().trim().max(200, "The description is too long");

export const CreateWebhookBody = z.object({ url, events, description: description.optional() });
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const UpdateWebhookBody = z
  .object({ url, events, description, enabled: z.boolean() })
  .partial()
  .refine((b) => Object.keys(b).length > 0, "Nothing to change");
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const WebhookDeliveryStatus = z.enum(["pending", "delivered", "failed"]);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

/** One delivery of one event to one endpoint, with its last attempt. */
export const WebhookDelivery = z.object({
  id: z.uuid(),
  /** The event's id (the `Hangar-Event-Id` header); a redelivery keeps it. */
  event_id: z.uuid(),
  type: z.string(),
  status: WebhookDeliveryStatus,
  attempts: z.number().int(),
  /** The last attempt's HTTP status; null when none was answered (refused, unreachable, timed out). */
  response_status: z.number().int().nullable(),
  /** The first 1 KB of the last answer. */
  response_body: z.string().nullable(),
  /** Why the last attempt failed, in words (null when it succeeded or none was made). */
  error: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  is_test: z.boolean(),
  redelivery_of: z.uuid().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** One delivery with the body that was sent. */
export const WebhookDeliveryDetail = WebhookDelivery.extend({ request_body: z.string() });
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetail>;

export const WebhookDeliveryList = z.object({
  data: z.array(WebhookDelivery),
  /** Pass as `before` for older ones; null: no more. */
  next_cursor: z.string().nullable(),
});
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

export const WebhookDeliveriesQuery = z.object({
  before: z
    .string()
    .regex(/^\d{1,19}$/, "Not a cursor")
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const Webhook = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string(),
  events: z.array(WebhookEventType),
  enabled: z.boolean(),
  /** `failing`: enabled, but its deliveries have failed since `failing_since`. */
  state: z.enum(["enabled", "failing", "disabled"]),
  failing_since: z.string().nullable(),
  /** Why it was disabled by Hangar (null when enabled, or disabled by a person). */
  disabled_reason: z.string().nullable(),
  created_by: z.object({ id: z.uuid(), name: z.string(), email: z.string() }).nullable(),
  created_at: z.string(),
  last_delivery: z
    .object({ status: WebhookDeliveryStatus, response_status: z.number().int().nullable(), at: z.string() })
    .nullable(),
});
export type Webhook = z.infer<typeof Webhook>;

/** Creating an endpoint or rolling its secret: the only answers with the secret. */
export const WebhookWithSecret = Webhook.extend({ secret: z.string() });
export type WebhookWithSecret = z.infer<typeof WebhookWithSecret>;

export const WebhookList = z.object({ data: z.array(Webhook) });
export type WebhookList = z.infer<typeof WebhookList>;
