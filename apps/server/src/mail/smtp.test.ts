import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Client, createTestEnv, linkToken, PASSWORD, type TestEnv, uniqueEmail } from "../../test/harness.ts";

/** A real SMTP peer in-process: the mail leaves through nodemailer and the link in it is followed. */
const inbox: Array<{ to: string; subject: string; text: string }> = [];
let smtp: SMTPServer;
let env: TestEnv;

beforeAll(async () => {
  smtp = new SMTPServer({
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
        // nodemailer sends long lines quoted-printable: undo soft breaks and =XX escapes.
        // Multipart mails (text and HTML) name the encoding per part.
        if (/Content-Transfer-Encoding: quoted-printable/i.test(raw)) {
          text = text
            .replace(/=\r\n/g, "")
            .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
        }
        for (const rcpt of session.envelope.rcptTo) inbox.push({ to: rcpt.address, subject, text });
        done();
      });
    },
  });
  smtp.listen(0, "127.0.0.1");
  await once(smtp.server, "listening");
  const port = (smtp.server.address() as AddressInfo).port;
  env = await createTestEnv({ SMTP_URL: `smtp://127.0.0.1:${port}` });
});
afterAll(async () => {
  await env.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

async function waitForMail(to: string) {
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    const m = inbox.find((x) => x.to === to);
    if (m) return m;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail for ${to}`);
}

it("sends the verification mail over SMTP; following its link verifies and signs in", async () => {
  const email = uniqueEmail("smtp");
  const c = new Client(env.app);
  await c.post("/users/register", { email, password: PASSWORD, first_name: "Mail" });
  const mail = await waitForMail(email);
  expect(mail.subject).toMatch(/verify/i);
  const token = linkToken(mail.text, "http://hangar.test/a/verify-email/");
  const res = await c.post(`/users/verify-email/${token}`);
  expect(res.statusCode).toBe(200);
  expect((await c.get("/users/me")).json().data).toMatchObject({ email, email_verified: true });
  // Nothing went to the dev outbox when SMTP is configured.
  const kept = await env.rt.db.selectFrom("mail_outbox").select("id").where("to_address", "=", email).execute();
  expect(kept).toHaveLength(0);
});
