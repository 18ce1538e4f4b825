import { once } from "node:events";
import { appendFileSync, chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { startE2EServer } from "./hangar-server.ts";

function decodeMail(raw: string) {
  const [head = "", ...rest] = raw.split("\r\n\r\n");
  let text = rest.join("\r\n\r\n");
  // Mails are multipart (text and HTML): each part names its own transfer encoding.
  if (/Content-Transfer-Encoding: quoted-printable/i.test(raw)) {
    text = text
      .replace(/=\r\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  }
  return { subject: /^Subject: (.*)$/im.exec(head)?.[1] ?? "", text };
}

/**
 * Starts a real SMTP peer (mails land in a JSON-lines file the tests read) and a real Hangar server
 * on a fresh embedded PostgreSQL in a temp data dir, exactly as `npm start` runs it.
 */
export default async function globalSetup() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "hangar-e2e-"));
  // mkdtemp makes 0700; as root the cluster would be relocated outside it and outlive the run.
  chmodSync(tmp, 0o755);
  const mailbox = path.join(tmp, "mailbox.jsonl");
  writeFileSync(mailbox, "");
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const mail = decodeMail(Buffer.concat(chunks).toString("utf8"));
        for (const r of session.envelope.rcptTo)
          appendFileSync(mailbox, `${JSON.stringify({ to: r.address, ...mail })}\n`);
        done();
      });
    },
  });
  smtp.listen(0, "127.0.0.1");
  await once(smtp.server, "listening");
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const server = await startE2EServer({
    label: "shared",
    // Webhooks may reach the receivers the specs start on this machine (webhooks.spec.ts).
    env: () => ({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8" }),
  });
  process.env.HANGAR_E2E_URL = server.baseUrl;
  process.env.HANGAR_E2E_MAILBOX = mailbox;
  // Specs that need a differently configured server of their own (billing) send mail to the same peer.
  process.env.HANGAR_E2E_SMTP_PORT = String(smtpPort);

  return async () => {
    await server.stop();
    await new Promise<void>((r) => smtp.close(() => r()));
    rmSync(tmp, { recursive: true, force: true });
  };
}
