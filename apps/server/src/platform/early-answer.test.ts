import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, type TestEnv, workspaceWith } from "../../test/harness.ts";
import { UNREAD_BODY_DRAIN_BYTES } from "./body-parsing.ts";

/**
 * An answer given before the request's body was read (413 past the declared size, 403 on a bad
 * signature) must not leave the connection waiting for a body nobody reads: a browser reusing that
 * connection for its next request would hang. Driven over a raw socket, as a browser's keep-alive
 * connection is, against the real server listening on loopback.
 */
let env: TestEnv;
let port: number;
beforeAll(async () => {
  env = await createTestEnv();
  await env.app.listen({ port: 0, host: "127.0.0.1" });
  port = (env.app.server.address() as net.AddressInfo).port;
});
afterAll(() => env.close());

interface Exchange {
  first: string;
  /** What the connection did after the first answer when asked again: answered, or was closed. */
  after: "answered" | "closed";
}

/**
 * Sends `head` and the body's bytes (as much as the peer reads), waits for the first answer, then asks
 * GET /healthz on the same connection and reports whether it was answered or the socket was closed.
 * A connection that does neither keeps this waiting: the test fails on its timeout.
 */
function exchange(head: string, body: Buffer): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    let first: string | null = null;
    let asked = false;
    socket.on("error", (err: NodeJS.ErrnoException) => {
      // A reset after the first answer is a closed connection; before it, a failure.
      if (first !== null) resolve({ first, after: "closed" });
      else reject(err);
    });
    socket.on("close", () => {
      if (first !== null)
        resolve({ first, after: /HTTP\/1\.1 200/.test(text.slice(first.length)) ? "answered" : "closed" });
      else reject(new Error(`closed before any answer: ${JSON.stringify(text.slice(0, 200))}`));
    });
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      if (first === null) {
        const end = text.indexOf("\r\n\r\n");
        const length = /content-length: (\d+)/i.exec(text);
        if (end < 0 || !length) return;
        if (text.length < end + 4 + Number(length[1])) return;
        first = text.slice(0, end + 4 + Number(length[1]));
      }
      if (!asked) {
        asked = true;
        socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", () => undefined);
      } else if (/HTTP\/1\.1 200[\s\S]*\r\n\r\n/.test(text.slice(first.length))) {
        resolve({ first, after: "answered" });
        socket.destroy();
      }
    });
    socket.write(head);
    // The body goes out as a browser sends it: all of it, whether or not the server reads it.
    socket.write(body, () => undefined);
  });
}

async function directUploadPath(size: number) {
  const { ws, admin } = await workspaceWith(env);
  const init = await admin.client.post(`/workspaces/${ws.id}/assets/upload`, { name: "big.bin", size });
  expect(init.statusCode, init.body).toBe(200);
  const url = init.json().direct_url as string;
  expect(url).toMatch(/^\/api\/v1\/uploads\//);
  return url;
}

const put = (path: string, length: number) =>
  `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${length}\r\nConnection: keep-alive\r\n\r\n`;

describe("an answer before the body is read", () => {
  it("a direct upload PUT past its declared size answers 413; the rest is read and dropped, and the connection answers its next request", async () => {
    const path = await directUploadPath(1000);
    const body = Buffer.alloc(1_500_000, 7);
    const { first, after } = await exchange(put(path, body.length), body);
    expect(first).toMatch(/^HTTP\/1\.1 413/);
    expect(first).toMatch(/"code":"PAYLOAD_TOO_LARGE"/);
    expect(first).not.toMatch(/connection: close/i);
    expect(after).toBe("answered");
  });

  it(`past ${UNREAD_BODY_DRAIN_BYTES} bytes the 413 says the connection closes, and it does`, async () => {
    const path = await directUploadPath(1000);
    const body = Buffer.alloc(UNREAD_BODY_DRAIN_BYTES + 1_000_000, 7);
    const { first, after } = await exchange(put(path, body.length), body);
    expect(first).toMatch(/^HTTP\/1\.1 413/);
    expect(first).toMatch(/connection: close/i);
    expect(after).toBe("closed");
  });

  it("a PUT refused before reading anything (bad signature) does not hold the connection", async () => {
    const path = await directUploadPath(1000);
    const forged = path.replace(/sig=[^&]+/, "sig=AAAA");
    const body = Buffer.alloc(3_000_000, 1);
    const { first, after } = await exchange(put(forged, body.length), body);
    expect(first).toMatch(/^HTTP\/1\.1 403/);
    expect(after).toBe("answered");
  });

  it("a body the route read in full keeps the connection alive for the next request", async () => {
    const path = await directUploadPath(1000);
    const body = Buffer.alloc(1000, 2);
    const { first, after } = await exchange(put(path, body.length), body);
    expect(first).toMatch(/^HTTP\/1\.1 200/);
    expect(first).not.toMatch(/connection: close/i);
    expect(after).toBe("answered");
  });
});
