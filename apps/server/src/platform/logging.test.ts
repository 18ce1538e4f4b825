import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, type TestEnv, workspaceWith } from "../../test/harness.ts";
import { loggerOptions, redactUrl } from "./logging.ts";

describe("redactUrl", () => {
  it("redacts every public link's token, by its route's :token parameter or by the known prefixes", () => {
    expect(redactUrl("/api/v1/request/abc123")).toBe("/api/v1/request/[redacted]");
    expect(redactUrl("/api/v1/request/abc123/upload/complete")).toBe("/api/v1/request/[redacted]/upload/complete");
    expect(redactUrl("/r/abc123?x=1")).toBe("/r/[redacted]?x=1");
    expect(redactUrl("/s/abc123")).toBe("/s/[redacted]");
    // Any route with a token parameter, wherever it sits in the path.
    expect(redactUrl("/api/v1/some-new-link/abc123/parts/2", "/api/v1/some-new-link/:token/parts/:n")).toBe(
      "/api/v1/some-new-link/[redacted]/parts/2",
    );
    expect(redactUrl("/api/v1/workspaces/w1/boards", "/api/v1/workspaces/:id/boards")).toBe(
      "/api/v1/workspaces/w1/boards",
    );
  });
});

describe("what the server logs of public links", () => {
  let env: TestEnv;
  const lines: string[] = [];
  beforeAll(async () => {
    // The production logger's options (serializers, redaction), every level, into memory.
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    env = await createTestEnv({}, { log: pino(loggerOptions("trace"), sink) });
  });
  afterAll(() => env.close());

  it("never writes a share link's or a file request's token, in any path, routed or not", async () => {
    const { ws, admin } = await workspaceWith(env);
    const c = admin.client;
    const board = (await c.post(`/workspaces/${ws.id}/boards`, { name: "Inbox" })).json().id as string;
    const share = (await c.get(`/workspaces/${ws.id}/share/board/${board}`)).json().token as string;
    const request = (await c.post(`/workspaces/${ws.id}/boards/${board}/file-requests`, {})).json().token as string;
    expect(share.length).toBeGreaterThan(20);
    expect(request.length).toBeGreaterThan(20);
    const v = new Client(env.app);
    const visit = { headers: { "x-request-visit": randomUUID() } };
    const answers = [
      await v.request("GET", `/request/${request}`, undefined, visit),
      await v.request("POST", `/request/${request}/upload`, { name: "a.jpg", size: 10 }, visit),
      await v.request("POST", `/request/${request}/upload/complete`, { upload_id: randomUUID(), parts: [] }, visit),
      await v.get(`/request/${request}/no-such-route`),
      await v.get(`/share/${share}`),
      await v.get(`/share/${share}/assets`),
      await v.get(`/share/${share}/board?board_id=${board}`),
    ];
    expect(answers[0]!.statusCode).toBe(200);
    expect(answers[4]!.statusCode).toBe(200);
    // The public pages (the SPA's), routed or not in this build.
    for (const url of [`/r/${request}`, `/s/${share}`, `/r/${request}?visit=1`])
      await env.app.inject({ method: "GET", url });

    const log = lines.join("");
    expect(log).toContain("/api/v1/request/[redacted]/upload");
    expect(log).toContain("/r/[redacted]");
    expect(log).not.toContain(request);
    expect(log).not.toContain(share);
  });
});
