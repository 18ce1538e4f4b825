import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, signedInUser, type TestEnv, workspaceWith } from "../../test/harness.ts";
import { MUTATING } from "./http.ts";

/**
 * Walks every registered API route. A route added later is covered automatically; one that does not
 * declare its access fails at start-up. Each route must: answer 401 signed out (unless public),
 * 403 mentioning CSRF when a mutation comes without the token, and 404 to a signed-in outsider.
 */
let env: TestEnv;
let foreignWorkspaceId: string;
let outsider: Client;

beforeAll(async () => {
  env = await createTestEnv();
  foreignWorkspaceId = (await workspaceWith(env)).ws.id;
  outsider = (await signedInUser(env)).client;
  // The outsider has a workspace of their own: membership somewhere must not leak access elsewhere.
  await outsider.post("/workspaces", { name: "Outsider's own" });
});
afterAll(() => env.close());

function fill(url: string, workspaceId: string) {
  return url.replace(/:(\w+)/g, (_m, name: string) =>
    name === "id" ? workspaceId : name === "token" ? "x".repeat(43) : randomUUID(),
  );
}

describe("route table", () => {
  it("has the routes this build is expected to have", () => {
    const urls = env.app.routeTable.map((r) => `${r.method} ${r.url}`);
    expect(urls).toContain("GET /api/v1/users/set-csrf-token");
    expect(urls).toContain("POST /api/v1/workspaces/:id/invites");
    expect(env.app.routeTable.length).toBeGreaterThan(25);
  });

  it("answers 401 to a signed-out caller on every non-public route", async () => {
    const anon = new Client(env.app);
    await anon.fetchCsrf();
    for (const r of env.app.routeTable.filter((r) => r.access !== "public")) {
      const res = await anon.request(
        r.method,
        fill(r.url, foreignWorkspaceId),
        MUTATING.has(r.method) ? {} : undefined,
      );
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
      expect(res.json().code).toBe("UNAUTHENTICATED");
    }
  });

  it("answers 403 mentioning CSRF to a mutation without the token", async () => {
    const { client } = await signedInUser(env);
    for (const r of env.app.routeTable.filter((r) => MUTATING.has(r.method) && r.csrf)) {
      const res = await client.request(r.method, fill(r.url, foreignWorkspaceId), {}, { csrf: false });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(res.json().detail).toMatch(/csrf/i);
    }
  });

  it("answers 403 when the header does not match the cookie", async () => {
    const { client } = await signedInUser(env);
    await client.fetchCsrf();
    const res = await client.request(
      "POST",
      "/workspaces",
      { name: "x" },
      { csrf: false, headers: { "x-csrftoken": "forged" } },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatch(/csrf/i);
  });

  it("answers 404 to a signed-in member of another workspace on every workspace route", async () => {
    const scoped = env.app.routeTable.filter((r) => r.access === "workspace");
    expect(scoped.length).toBeGreaterThan(5);
    for (const r of scoped) {
      const res = await outsider.request(
        r.method,
        fill(r.url, foreignWorkspaceId),
        MUTATING.has(r.method) ? {} : undefined,
      );
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(404);
      // A workspace id that does not exist at all answers the same way.
      const res2 = await outsider.request(r.method, fill(r.url, randomUUID()), MUTATING.has(r.method) ? {} : undefined);
      expect(res2.statusCode, `${r.method} ${r.url} (unknown id)`).toBe(404);
      expect(res2.json().detail).toBe(res.json().detail);
    }
  });
});
