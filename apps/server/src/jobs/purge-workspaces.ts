import { CronPayload } from "@hangar/contract";
import type { JobDefinition } from "./queue.ts";

/** Daily: workspaces deleted longer ago than their retention go for good. */
export const purgeWorkspacesJob = (purge: () => Promise<unknown>): JobDefinition<typeof CronPayload> => ({
  name: "purge-deleted-workspaces",
  payload: CronPayload,
  cron: "17 3 * * *",
  async handle() {
    await purge();
  },
});
