import { CronPayload } from "@hangar/contract";
import type { JobDefinition } from "./queue.ts";

/**
 * Hourly: perceptual hashes for current versions processed before hashing existed (issue 32), or
 * whose hashing failed, in batches (modules/similar backfill). Nothing to do costs one query.
 */
export const hashAssetsJob = (backfill: () => Promise<unknown>): JobDefinition<typeof CronPayload> => ({
  name: "hash-assets",
  payload: CronPayload,
  cron: "17 * * * *",
  async handle() {
    await backfill();
  },
});
