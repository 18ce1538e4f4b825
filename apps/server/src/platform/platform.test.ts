import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, signedInUser, type TestEnv } from "../../test/harness.ts";
import { ConfigError, loadConfig } from "../config.ts";
import { redactUrl } from "./logging.ts";

describe("configuration", () => {
  it("names the bad variable", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: "not a url" })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ COOKIE_SECURE: "sometimes" })).toThrow(/COOKIE_SECURE/);
  });
  it("has working defaults", () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.publicUrl).toBe("http://localhost:8080");
    expect(c.dataDir.endsWith("data")).toBe(true);
  });
});

describe("logging", () => {
  it("never writes tokens from paths or queries", () => {
    expect(redactUrl("/api/v1/users/verify-email/abcDEF123")).toBe("/api/v1/users/verify-email/[redacted]");
    expect(redactUrl("/api/v1/invites/tok123/info")).toBe("/api/v1/invites/[redacted]/info");
    expect(redactUrl("/a/reset-password?token=secret&x=1")).toBe("/a/reset-password?token=[redacted]&x=1");
    expect(redactUrl("/api/v1/workspaces")).toBe("/api/v1/workspaces");
  });
});

describe("http platform", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(() => env.close());

  it("answers an unexpected error with 500, a request id and no stack", async () => {
    const { client } = await signedInUser(env);
    // Break the service for one call: a real exception from deep inside.
    const original = env.rt.services.workspaces.list;
    env.rt.services.workspaces.list = async () => {
      throw new Error("boom at /secret/path.ts:12");
    };
    try {
      const res = await client.get("/workspaces");
      expect(res.statusCode).toBe(500);
      const body = res.json();
      expect(body).toMatchObject({ code: "INTERNAL", detail: "Internal server error." });
      expect(body.request_id).toBe(res.headers["x-request-id"]);
      expect(res.body).not.toMatch(/boom|secret|\.ts/);
    } finally {
      env.rt.services.workspaces.list = original;
    }
  });

  it("reports health and readiness", async () => {
    const c = new Client(env.app);
    expect((await c.get("/healthz")).json()).toEqual({ status: "ok" });
    expect((await c.get("/readyz")).json()).toEqual({ status: "ok" });
  });

  it("serves the OpenAPI document built from the contract", async () => {
    const res = await env.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/v1/users/login", "/api/v1/workspaces/{id}/members"]),
    );
    expect(doc.paths["/api/v1/users/login"].post.requestBody).toBeDefined();
  });
});
