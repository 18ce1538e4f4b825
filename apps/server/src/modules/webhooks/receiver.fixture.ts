import { once } from "node:events";
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

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
