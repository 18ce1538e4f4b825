import { CronPayload } from "@hangar/contract";
import type { JobDefinition } from "./queue.ts";

/** S3 only: finishes direct uploads whose bytes arrived but whose client never completed them. */
export const finishDirectUploadsJob = (finish: () => Promise<number>): JobDefinition<typeof CronPayload> => ({
  name: "finish-direct-uploads",
  payload: CronPayload,
  cron: "* * * * *",
  async handle() {
    await finish();
  },
});
