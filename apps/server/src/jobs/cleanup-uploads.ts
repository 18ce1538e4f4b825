import { CronPayload } from "@hangar/contract";
import type { JobDefinition } from "./queue.ts";

/** Hourly: rows without bytes (abandoned uploads), then bytes without rows (killed mid-write). */
export const cleanupUploadsJob = (cleanup: () => Promise<number>): JobDefinition<typeof CronPayload> => ({
  name: "cleanup-abandoned-uploads",
  payload: CronPayload,
  cron: "23 * * * *",
  async handle() {
    await cleanup();
  },
});
