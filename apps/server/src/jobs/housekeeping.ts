import { CronPayload } from "@hangar/contract";
import type { JobDefinition } from "./queue.ts";

/** Every 15 minutes: expired sessions and tokens, spent rate-limit windows. */
export const housekeepingJob = (steps: Array<() => Promise<unknown>>): JobDefinition<typeof CronPayload> => ({
  name: "housekeeping",
  payload: CronPayload,
  cron: "*/15 * * * *",
  async handle() {
    for (const step of steps) await step();
  },
});
