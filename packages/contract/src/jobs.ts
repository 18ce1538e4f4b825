import { z } from "zod";

/**
 * The payloads of the background jobs (apps/server/src/jobs/, one file per job). A job's payload is
 * checked when it is sent and again when a worker takes it, so a worker of another version (a rolling
 * deploy) fails loudly instead of acting on a payload it misreads.
 */

/**
 * `process-asset`: run the media pipeline for one asset, or for one version of it (`version_id`;
 * absent: the version whose id is `asset_id`, an asset's first).
 */
export const ProcessAssetPayload = z.object({ asset_id: z.string(), version_id: z.string().optional() });
export type ProcessAssetPayload = z.infer<typeof ProcessAssetPayload>;

/** `read-text`: OCR of a processed asset (its picture or first pages), after it is COMPLETED. */
export const ReadTextPayload = z.object({ asset_id: z.string() });
export type ReadTextPayload = z.infer<typeof ReadTextPayload>;

/** `send-email`: one message; bodies carry single-use tokens, so they are never logged. */
export const MailMessage = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().optional(),
});
export type MailMessage = z.infer<typeof MailMessage>;

/** Periodic jobs carry nothing of their own; the scheduler may add fields, which they ignore. */
export const CronPayload = z.object({}).passthrough();
export type CronPayload = z.infer<typeof CronPayload>;

/** `detect-faces`: look for faces in a COMPLETED version's pictures (issue 32), after the pipeline. */
export const DetectFacesPayload = z.object({ version_id: z.string() });
export type DetectFacesPayload = z.infer<typeof DetectFacesPayload>;

/** `group-faces`: group one workspace's waiting faces into people (or every workspace's: none named). */
export const GroupFacesPayload = z.object({ workspace_id: z.string().optional() }).passthrough();
export type GroupFacesPayload = z.infer<typeof GroupFacesPayload>;
/**
 * `webhook-deliver`: the deliveries of one endpoint about one object, oldest first (issue 36). Each is
 * claimed before its attempt, so two jobs for the same chain never send one twice or out of order.
 */
export const WebhookDeliverPayload = z.object({ endpoint_id: z.string(), object_key: z.string() });
export type WebhookDeliverPayload = z.infer<typeof WebhookDeliverPayload>;
