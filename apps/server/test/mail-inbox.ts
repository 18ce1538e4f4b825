import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { SMTPServer } from "smtp-server";
import type { TestEnv } from "./harness.ts";

export interface Received {
  to: string;
  subject: string;
  text: string;
}

/** A real SMTP peer in-process (as mail/smtp.test.ts): mail leaves through nodemailer and lands here. */
export async function smtpInbox() {
  const inbox: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const [head = "", ...rest] = raw.split("\r\n\r\n");
        const subject = /^Subject: (.*)$/im.exec(head)?.[1] ?? "";
        let text = rest.join("\r\n\r\n");
        // nodemailer sends long lines quoted-printable: undo soft breaks and =XX escapes (UTF-8 bytes).
        if (/Content-Transfer-Encoding: quoted-printable/i.test(raw))
          text = Buffer.from(
            text
              .replace(/=\r\n/g, "")
              .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
            "latin1",
          ).toString("utf8");
        for (const rcpt of session.envelope.rcptTo) inbox.push({ to: rcpt.address, subject, text });
        done();
      });
    },
  });
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  const port = (server.server.address() as AddressInfo).port;
  return {
    inbox,
    url: `smtp://127.0.0.1:${port}`,
    /** The mails to an address (with a subject, when given). */
    to: (address: string, subject?: string) =>
      inbox.filter((m) => m.to === address && (subject === undefined || m.subject === subject)),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Waits until every queued mail job has run (delivered or given up), so a count of mails is final. */
export async function mailsSettled(env: TestEnv, timeoutMs = 20_000) {
  const schema = sql.id(env.rt.config.JOBS_SCHEMA);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${schema}.job
      WHERE name = 'send-email' AND state IN ('created', 'retry', 'active')`.execute(env.rt.db);
    if (r.rows[0]!.n === 0) return;
    if (Date.now() > until) throw new Error(`mail jobs still pending after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** Waits for `count` mails matching, then answers them (never fewer; more would fail the caller's count). */
export async function waitForMails(find: () => Received[], count = 1, timeoutMs = 20_000): Promise<Received[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const got = find();
    if (got.length >= count) return got;
    if (Date.now() > until) throw new Error(`expected ${count} mail(s), got ${got.length}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}
