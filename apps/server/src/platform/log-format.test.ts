import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestEnv, type TestEnv, workspaceWith } from "../../test/harness.ts";
import { loadConfig, resolveLogFormat } from "../config.ts";
import { createLogger } from "./logging.ts";

/**
 * Issue 35: in a terminal the log is one readable line per entry with requests at debug (out of
 * sight at the default info), the dev outbox's lines marked; files, pipes and production get JSON
 * lines with requests at info, as before.
 */
const sink = () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { lines, stream };
};

describe("which log format", () => {
  it("readable in a terminal in development; JSON for files, pipes, production and tests; forced by LOG_FORMAT", () => {
    expect(resolveLogFormat("auto", true, "development")).toBe("pretty");
    expect(resolveLogFormat("auto", false, "development")).toBe("json");
    expect(resolveLogFormat("auto", true, "production")).toBe("json");
    expect(resolveLogFormat("auto", true, "test")).toBe("json");
    expect(resolveLogFormat("json", true, "development")).toBe("json");
    expect(resolveLogFormat("pretty", false, "production")).toBe("pretty");
  });

  it("requests at debug in a terminal, at info otherwise, unless LOG_REQUESTS says", () => {
    expect(loadConfig({}, true)).toMatchObject({ logFormat: "pretty", requestLogLevel: "debug" });
    expect(loadConfig({}, false)).toMatchObject({ logFormat: "json", requestLogLevel: "info" });
    expect(loadConfig({ NODE_ENV: "production" }, true)).toMatchObject({ logFormat: "json", requestLogLevel: "info" });
    expect(loadConfig({ LOG_REQUESTS: "info" }, true).requestLogLevel).toBe("info");
    expect(() => loadConfig({ LOG_FORMAT: "xml" })).toThrow(/LOG_FORMAT/);
  });
});

describe("the readable log", () => {
  it("prints one line per entry, not JSON; the dev outbox's line is marked", () => {
    const { lines, stream } = sink();
    const log = createLogger("info", "pretty", stream);
    log.info("Hangar started");
    log.debug("hidden at info");
    log.info({ to: "ann@example.test", outbox: true }, "dev outbox: mail to ann@example.test: http://x/a/invite/t");
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(() => JSON.parse(l)).toThrow();
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: Hangar started$/);
    expect(lines[1]).toContain("✉  dev outbox: mail to ann@example.test: http://x/a/invite/t");
  });

  it("JSON stays JSON: one object a line, the outbox's flagged", () => {
    const { lines, stream } = sink();
    const log = createLogger("info", "json", stream);
    log.info({ outbox: true }, "dev outbox: mail to b@example.test: http://x");
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 30,
      outbox: true,
      msg: expect.stringContaining("dev outbox"),
    });
  });
});

describe("request lines from the server", () => {
  let env: TestEnv;
  const out = sink();
  beforeAll(async () => {
    // A terminal's format: requests at debug, shown here because the logger is at debug.
    env = await createTestEnv({ LOG_FORMAT: "pretty" }, { log: createLogger("debug", "pretty", out.stream) });
  });
  afterAll(() => env.close());

  it("one line per request, at debug: method, path, status and time", async () => {
    const { ws, admin } = await workspaceWith(env);
    out.lines.length = 0;
    expect((await admin.client.get(`/workspaces/${ws.id}/boards`)).statusCode).toBe(200);
    const mine = out.lines.filter((l) => l.includes(`/api/v1/workspaces/${ws.id}/boards`));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatch(new RegExp(`DEBUG: GET /api/v1/workspaces/${ws.id}/boards 200 \\d+ ms$`));
    expect(out.lines.some((l) => l.includes("incoming request"))).toBe(false);
  });
});
