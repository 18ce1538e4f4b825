import type { MailMessage } from "@hangar/contract";
import type { Db } from "../db/db.ts";

/** The dev outbox: mail kept in a table when no SMTP server is configured (`hangar outbox` reads it). */
export const outboxRepo = {
  async keep(db: Db, msg: MailMessage) {
    await db
      .insertInto("mail_outbox")
      .values({ to_address: msg.to, subject: msg.subject, text_body: msg.text, html_body: msg.html ?? null })
      .execute();
  },
  /** The newest messages, newest first. */
  latest(db: Db, limit: number) {
    return db.selectFrom("mail_outbox").selectAll().orderBy("created_at", "desc").limit(limit).execute();
  },
};
