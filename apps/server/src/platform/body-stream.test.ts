import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { bodyStream } from "./body-parsing.ts";

/**
 * A request body handed to a route as a stream (signed upload parts) before the route reads it: the
 * route first checks the signature and the upload in the database. A sender that resets the
 * connection in that time (a browser aborting a part: Cancel, Skip, a closed tab) must not take the
 * process down with an error nobody listens to. Driven over a real socket against a real server.
 */
let server: http.Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe("a body stream not read yet", () => {
  it("survives the sender resetting the connection mid-body, and a later reader hears why", async () => {
    let seen!: (body: ReturnType<typeof bodyStream>) => void;
    const handed = new Promise<ReturnType<typeof bodyStream>>((resolve) => {
      seen = resolve;
    });
    server = http.createServer((req) => seen(bodyStream(req)));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;

    const socket = net.connect(port, "127.0.0.1");
    socket.write(
      `PUT /part HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: 8000000\r\n\r\n`,
    );
    socket.write(Buffer.alloc(64 * 1024, 5));
    const body = await handed;
    const closed = new Promise((resolve) => body.once("close", resolve));
    socket.resetAndDestroy();
    // Without a listener of its own, the stream's error would be an uncaught exception here.
    await closed;
    expect(body.destroyed).toBe(true);
    // A route that comes to read it afterwards is told the body did not arrive.
    await expect(
      (async () => {
        for await (const _ of body) {
          // drain
        }
      })(),
    ).rejects.toThrow();
  });
});
