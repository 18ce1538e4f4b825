import { CronPayload, WebhookDeliverPayload } from "@hangar/contract";
import type { JobDefinition, JobSpec } from "./queue.ts";

/** One endpoint's deliveries about one object, in order (issue 36): sent after each dispatch. */
export const webhookDeliverSpec: JobSpec<typeof WebhookDeliverPayload> = {
  name: "webhook-deliver",
  payload: WebhookDeliverPayload,
};

/**
 * Delivers a chain until one fails or none is due. Its own failures (an HTTP answer, a refused
 * address) are the deliveries' to retry with their backoff, never the job's: a job fails only when the
 * database does, and then the sweep finds the chain due anyway.
 */
export const webhookDeliverJob = (
  deliver: (endpointId: string, objectKey: string) => Promise<unknown>,
): JobDefinition<typeof WebhookDeliverPayload> => ({
  ...webhookDeliverSpec,
  retryLimit: 2,
  // Each attempt takes at most 10 s; a chain of many may take a while.
  expireInSeconds: 30 * 60,
  async handle(data) {
    await deliver(data.endpoint_id, data.object_key);
  },
});

/**
 * Every minute: events the outbox still holds (a NOTIFY missed), retries whose backoff has passed,
 * endpoints failing for a day (disabled, ADMINs mailed), and the log's old rows. A worker also starts
 * hearing the outbox (`listen`), so events are dispatched as they commit.
 */
export const webhookSweepJob = (
  sweep: () => Promise<unknown>,
  listen: () => void,
): JobDefinition<typeof CronPayload> => ({
  name: "webhook-sweep",
  payload: CronPayload,
  cron: "* * * * *",
  onWork: listen,
  async handle() {
    await sweep();
  },
});
