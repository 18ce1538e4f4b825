import { once } from "node:events";
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { SMTPServer } from "smtp-server";
import type { TestEnv } from "../../../test/harness.ts";

export interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as the signature covers it. */
  body: string;
  /** The body's `type`, and its object's id (`data.object.id`, a member's `user_id`), when JSON. */
  type: string | undefined;
  objectId: string | undefined;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

/**
 * A real HTTP receiver on 127.0.0.1 (issue 36's tests): it keeps every request and answers what
 * `answer` says (200 "ok" unless told otherwise).
 */
export async function webhookReceiver() {
  const hits: Hit[] = [];
  let answer: (hit: Hit) => Answer = () => ({ status: 200, body: "ok" });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let parsed: { type?: string; data?: { object?: { id?: string; user_id?: string } } } = {};
      try {
        parsed = JSON.parse(body);
      } catch {}
      const hit = {
        path: req.url ?? "",
        headers: req.headers,
        body,
        type: parsed.type,
        objectId: parsed.data?.object?.id ?? parsed.data?.object?.user_id,
      };
      hits.push(hit);
      const a = answer(hit);
      res.writeHead(a.status, a.headers);
      res.end(a.body ?? "");
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    hits,
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    answerWith(fn: (hit: Hit) => Answer) {
      answer = fn;
    },
    /** The hits on a path, in arrival order. */
    on: (path: string) => hits.filter((h) => h.path === path),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
export type Receiver = Awaited<ReturnType<typeof webhookReceiver>>;

/** Polls until `check` answers a value (not undefined/false), or fails after `timeoutMs` with what it saw last. */
export async function until<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 20_000,
) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Mail {
  to: string;
  subject: string;
  /** The raw message after its headers (both parts, quoted-printable undone). */
  text: string;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives (as mail/smtp.test.ts does). */
export async function mailInbox() {
  const inbox: Mail[] = [];
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
        const text = Buffer.from(
          rest
            .join("\r\n\r\n")
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
  return {
    inbox,
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Waits until no mail job of the env is queued or running, so a count of mails is final. */
export async function mailJobsSettled(env: TestEnv) {
  const schema = sql.id(env.rt.config.JOBS_SCHEMA);
  await until(async () => {
    const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${schema}.job
      WHERE name = 'send-email' AND state IN ('created', 'retry', 'active')`.execute(env.rt.db);
    return r.rows[0]!.n === 0;
  });
}
