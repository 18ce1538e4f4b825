import { CronPayload } from "@hangar/contract";
import type { JobDefinition } from "./queue.ts";

/**
 * Every minute: the review mails that are due (issue 30): decisions gathered during a review's
 * 10-minute window, reminders 24 hours before a due date, overdue notices, and whatever a change left
 * unsent (each mail is claimed once, so a sweep and a request never send one twice).
 */
export const reviewMailsJob = (sweep: () => Promise<unknown>): JobDefinition<typeof CronPayload> => ({
  name: "review-mails",
  payload: CronPayload,
  cron: "* * * * *",
  async handle() {
    await sweep();
  },
});
