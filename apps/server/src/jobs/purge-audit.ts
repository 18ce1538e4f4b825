import { CronPayload } from "@hangar/contract";
import type { JobDefinition } from "./queue.ts";

/** Daily: audit rows past their workspace's retention (default a year) go, and those of purged workspaces. */
export const purgeAuditJob = (purge: () => Promise<unknown>): JobDefinition<typeof CronPayload> => ({
  name: "purge-audit-log",
  payload: CronPayload,
  cron: "17 3 * * *",
  async handle() {
    await purge();
  },
});
