import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { appendFileSync, chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";

const root = path.resolve(import.meta.dirname, "../..");

async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, "127.0.0.1");
  await once(srv, "listening");
  const port = (srv.address() as AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

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

  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const server: ChildProcess = spawn(process.execPath, ["apps/server/bin/hangar.mjs", "start"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseUrl,
      DATA_DIR: path.join(tmp, "data"),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      DEMO_ACCOUNT: "0",
      // Every browser test signs up its own users, all from 127.0.0.1.
      REGISTRATIONS_PER_IP_PER_HOUR: "1000",
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
      DATABASE_URL: "",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (server.exitCode !== null)
      throw new Error(`the Hangar server exited with ${server.exitCode} before it was ready`);
    try {
      const res = await fetch(`${baseUrl}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("the Hangar server did not become ready within 90 s");
    await new Promise((r) => setTimeout(r, 250));
  }
  process.env.HANGAR_E2E_URL = baseUrl;
  process.env.HANGAR_E2E_MAILBOX = mailbox;
  // Specs that need a differently configured server of their own (billing) send mail to the same peer.
  process.env.HANGAR_E2E_SMTP_PORT = String(smtpPort);

  return async () => {
    server.kill("SIGTERM");
    await Promise.race([once(server, "exit"), new Promise((r) => setTimeout(r, 20_000))]);
    await new Promise<void>((r) => smtp.close(() => r()));
    rmSync(tmp, { recursive: true, force: true });
  };
}
