import type { MailMessage } from "@hangar/contract";
import nodemailer from "nodemailer";
import type { Logger } from "pino";
import type { Db } from "../db/db.ts";
import type { Jobs } from "../jobs/queue.ts";
import { sendEmailSpec } from "../jobs/send-email.ts";
import { outboxRepo } from "./outbox-repo.ts";

export { MailMessage } from "@hangar/contract";

/**
 * Mail goes out through a job so a slow or failing SMTP server never fails the request and a message
 * is retried rather than lost. Without SMTP_URL it lands in the dev outbox table (`hangar outbox`
 * prints it, also while Hangar runs) and the log gets its link; with SMTP the log gets the recipient
 * and subject only, since bodies carry single-use tokens.
 */
export function createMailer(opts: { db: Db; log: Logger; jobs: Jobs; smtpUrl?: string; from: string }) {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;

  async function deliver(msg: MailMessage): Promise<void> {
    if (transport) {
      await transport.sendMail({ from: opts.from, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html });
      opts.log.info({ to: msg.to, subject: msg.subject }, "mail sent");
      return;
    }
    await outboxRepo.keep(opts.db, msg);
    // Development only (no SMTP_URL): the outbox already holds the token, and the person running
    // Hangar needs the link now, so the log gets it on one line they can click.
    const link = /https?:\/\/\S+/.exec(msg.text)?.[0];
    // `outbox`: the readable log marks and colours the line (platform/logging.ts).
    opts.log.info(
      { to: msg.to, subject: msg.subject, outbox: true },
      link
        ? `dev outbox: mail to ${msg.to}: ${link}`
        : "mail kept in the dev outbox (no SMTP_URL); read it with `npm run outbox`",
    );
  }

  return {
    deliver,
    /** Queue a message; call after the transaction that creates its token has committed. */
    async send(msg: MailMessage): Promise<void> {
      await opts.jobs.send(sendEmailSpec, msg);
    },
  };
}
export type Mailer = ReturnType<typeof createMailer>;
