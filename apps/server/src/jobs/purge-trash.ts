import { CronPayload } from "@hangar/contract";
import type { JobDefinition } from "./queue.ts";

/** Hourly: what sat in Recently deleted past its retention goes for good, bytes too. */
export const purgeTrashJob = (purge: () => Promise<unknown>): JobDefinition<typeof CronPayload> => ({
  name: "purge-recently-deleted",
  payload: CronPayload,
  cron: "41 * * * *",
  async handle() {
    await purge();
  },
});
