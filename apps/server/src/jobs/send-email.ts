import { MailMessage } from "@hangar/contract";
import type { JobDefinition, JobSpec } from "./queue.ts";

/** What a sender needs (the mailer): the name and the payload. */
export const sendEmailSpec: JobSpec<typeof MailMessage> = { name: "send-email", payload: MailMessage };

/** One message through SMTP (or the dev outbox); retried, since a mail server may be down a while. */
export const sendEmailJob = (deliver: (msg: MailMessage) => Promise<void>): JobDefinition<typeof MailMessage> => ({
  ...sendEmailSpec,
  retryLimit: 8,
  retryDelaySeconds: 15,
  handle: deliver,
});
