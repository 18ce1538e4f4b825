import { CronPayload } from "@hangar/contract";
import type { JobDefinition } from "./queue.ts";

/**
 * Daily: each workspace's ADMINs hear of the assets whose usage rights expire within 14 days and of
 * those that expired (issue 33), each notice once. Expiry itself needs no job: reads compare with now.
 */
export const rightsMailsJob = (sweep: () => Promise<unknown>): JobDefinition<typeof CronPayload> => ({
  name: "rights-mails",
  payload: CronPayload,
  cron: "7 6 * * *",
  async handle() {
    await sweep();
  },
});
