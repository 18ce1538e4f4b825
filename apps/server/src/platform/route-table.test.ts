import { randomUUID } from "node:crypto";
import { API_PREFIX, apiRoutes } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, signedInUser, type TestEnv, workspaceWith } from "../../test/harness.ts";
import { MUTATING } from "./http.ts";

/**
 * Walks every API route of the contract (`apiRoutes`), after checking the server registered exactly
 * those. A route added later is covered automatically; one that does not declare its access fails at
 * start-up. Each route must: answer 401 signed out (unless public),
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

/** The contract's routes as the route table would list them. */
const contractRoutes = apiRoutes.map((r) => ({
  method: r.method,
  url: `${API_PREFIX}${r.path}`,
  access: r.access,
  csrf: r.csrf,
}));
const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

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

  it("registers every contract route exactly once, and no API route outside the contract", () => {
    const registered = env.app.routeTable.map(key);
    for (const r of contractRoutes) {
      expect(
        registered.filter((k) => k === key(r)),
        key(r),
      ).toHaveLength(1);
    }
    const declared = new Set(contractRoutes.map(key));
    expect(declared.size, "a route declared twice in the contract").toBe(contractRoutes.length);
    expect(registered.filter((k) => !declared.has(k))).toEqual([]);
    // The access and CSRF the server enforces are the contract's.
    for (const r of env.app.routeTable) {
      const c = contractRoutes.find((x) => key(x) === key(r));
      expect({ access: r.access, csrf: r.csrf || !MUTATING.has(r.method) }, key(r)).toEqual({
        access: c?.access,
        csrf: c?.csrf || !MUTATING.has(r.method),
      });
    }
  });

  it("documents every contract route in the OpenAPI answer at /api/docs/json", async () => {
    const res = await env.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<string, Record<string, unknown>>;
    for (const r of contractRoutes) {
      const openApiPath = r.url.replace(/:(\w+)/g, "{$1}");
      expect(paths[openApiPath]?.[r.method.toLowerCase()], key(r)).toBeDefined();
    }
  });

  it("answers 401 to a signed-out caller on every non-public route", async () => {
    const anon = new Client(env.app);
    await anon.fetchCsrf();
    for (const r of contractRoutes.filter((r) => r.access !== "public")) {
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
    for (const r of contractRoutes.filter((r) => MUTATING.has(r.method) && r.csrf)) {
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
    const scoped = contractRoutes.filter((r) => r.access === "workspace");
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
