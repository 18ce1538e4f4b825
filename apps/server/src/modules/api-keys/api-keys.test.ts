import { apiRoutes, routeScope } from "@hangar/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, createTestEnv, signedInUser, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { API_KEY_LIMIT, apiKeyLimitKey, secretHash } from "./index.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

/** A caller with only a bearer key: no cookie, no CSRF token. */
function withKey(secret: string) {
  const call = (method: string, url: string, body?: object) =>
    env.app.inject({
      method: method as "GET",
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${secret}` },
      ...(body !== undefined ? { payload: body } : {}),
    });
  return {
    get: (url: string) => call("GET", url),
    post: (url: string, body: object = {}) => call("POST", url, body),
    put: (url: string, body: object = {}) => call("PUT", url, body),
    del: (url: string) => call("DELETE", url),
  };
}

async function newKey(admin: Client, wsId: string, scopes: string[], extra: object = {}) {
  const res = await admin.post(`/workspaces/${wsId}/api-keys`, { name: `key ${scopes.join(" ")}`, scopes, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string; prefix: string };
}

describe("API keys", () => {
  it("an ADMIN creates a key whose secret is answered once and stored hashed, lists and revokes it", async () => {
    const { ws, admin } = await workspaceWith(env);
    const res = await admin.client.post(`/workspaces/${ws.id}/api-keys`, {
      name: "  CI sync ",
      scopes: ["assets:read", "assets:write", "assets:read"],
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created.secret).toMatch(/^hgr_[A-Za-z0-9_-]{43}$/);
    expect(created.secret.startsWith(created.prefix)).toBe(true);
    expect(created).toMatchObject({
      name: "CI sync",
      scopes: ["assets:read", "assets:write"],
      created_by: { id: admin.user.id, email: admin.email },
      last_used_at: null,
      revoked_at: null,
    });
    const row = await env.rt.db
      .selectFrom("api_keys")
      .selectAll()
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(secretHash(created.secret));
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(4));

    const list = await admin.client.get(`/workspaces/${ws.id}/api-keys`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toHaveLength(1);
    expect(list.json().data[0]).toMatchObject({ id: created.id, prefix: created.prefix, name: "CI sync" });
    expect(list.body).not.toContain(created.secret);

    // Used: last_used_at is set.
    expect((await withKey(created.secret).get(`/workspaces/${ws.id}/boards`)).statusCode).toBe(200);
    const used = (await admin.client.get(`/workspaces/${ws.id}/api-keys`)).json().data[0];
    expect(used.last_used_at).not.toBeNull();

    const revoked = await admin.client.del(`/workspaces/${ws.id}/api-keys/${created.id}`);
    expect(revoked.statusCode).toBe(200);
    expect((await admin.client.get(`/workspaces/${ws.id}/api-keys`)).json().data[0].revoked_at).not.toBeNull();
    const refused = await withKey(created.secret).get(`/workspaces/${ws.id}/boards`);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().detail).toBe("This API key has been revoked.");
    expect((await admin.client.del(`/workspaces/${ws.id}/api-keys/${ws.id}`)).statusCode).toBe(404);
  });

  it("refuses the api-keys routes to EDITOR and COMMENTER (403) and outsiders (404)", async () => {
    const { ws, admin, members } = await workspaceWith(env, ["EDITOR", "COMMENTER"]);
    const key = await newKey(admin.client, ws.id, ["assets:read"]);
    const outsider = await signedInUser(env);
    for (const m of [members.EDITOR!, members.COMMENTER!]) {
      expect((await m.client.get(`/workspaces/${ws.id}/api-keys`)).statusCode).toBe(403);
      expect((await m.client.post(`/workspaces/${ws.id}/api-keys`, { name: "x", scopes: ["admin"] })).statusCode).toBe(
        403,
      );
      expect((await m.client.del(`/workspaces/${ws.id}/api-keys/${key.id}`)).statusCode).toBe(403);
    }
    expect((await outsider.client.get(`/workspaces/${ws.id}/api-keys`)).statusCode).toBe(404);
    expect(
      (await outsider.client.post(`/workspaces/${ws.id}/api-keys`, { name: "x", scopes: ["admin"] })).statusCode,
    ).toBe(404);
    expect((await outsider.client.del(`/workspaces/${ws.id}/api-keys/${key.id}`)).statusCode).toBe(404);
  });

  it("refuses bad bodies with 422 and the field: unknown scope, empty name, no scopes, past expiry", async () => {
    const { ws, admin } = await workspaceWith(env);
    const url = `/workspaces/${ws.id}/api-keys`;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: "k", scopes: ["assets:delete"] }, "scopes"],
      [{ name: "  ", scopes: ["assets:read"] }, "name"],
      [{ name: "k", scopes: [] }, "scopes"],
      [{ name: "k", scopes: ["admin"], expires_at: new Date(Date.now() - 60_000).toISOString() }, "expires_at"],
      [{ name: "k", scopes: ["admin"], expires_at: "tomorrow" }, "expires_at"],
    ];
    for (const [body, field] of cases) {
      const res = await admin.client.post(url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(res.json().errors), JSON.stringify(body)).toContain(field);
    }
  });

  it("a key reads with assets:read, is refused writes without assets:write (403), writes with it, and needs no CSRF", async () => {
    const { ws, admin } = await workspaceWith(env);
    const reader = withKey((await newKey(admin.client, ws.id, ["assets:read"])).secret);
    const list = await reader.post(`/workspaces/${ws.id}/assets`, {});
    expect(list.statusCode, list.body).toBe(200);
    expect((await reader.get(`/workspaces/${ws.id}/boards`)).statusCode).toBe(200);
    const write = await reader.post(`/workspaces/${ws.id}/boards`, { name: "From a key" });
    expect(write.statusCode).toBe(403);
    expect(write.json().detail).toContain("assets:write");
    // A read-only key may not comment either, nor manage keys.
    expect((await reader.post(`/workspaces/${ws.id}/comments`, {})).statusCode).toBe(403);
    expect((await reader.get(`/workspaces/${ws.id}/api-keys`)).statusCode).toBe(403);

    const writer = withKey((await newKey(admin.client, ws.id, ["assets:read", "assets:write"])).secret);
    const board = await writer.post(`/workspaces/${ws.id}/boards`, { name: "From a key" });
    expect(board.statusCode, board.body).toBe(201);
    // Its scopes make it an EDITOR at most: the workspace's ADMIN settings stay closed.
    expect((await writer.put(`/workspaces/${ws.id}`, { name: "Renamed" })).statusCode).toBe(403);

    const adminKey = withKey((await newKey(admin.client, ws.id, ["admin"])).secret);
    expect((await adminKey.put(`/workspaces/${ws.id}`, { name: "Renamed" })).statusCode).toBe(200);
    expect((await adminKey.get(`/workspaces/${ws.id}/api-keys`)).statusCode).toBe(200);
  });

  it("works only on its own workspace (404 elsewhere) and refuses routes outside any workspace", async () => {
    const one = await workspaceWith(env);
    const two = await workspaceWith(env);
    const key = withKey((await newKey(one.admin.client, one.ws.id, ["admin"])).secret);
    const other = await key.get(`/workspaces/${two.ws.id}/boards`);
    expect(other.statusCode).toBe(404);
    expect((await key.post(`/workspaces/${two.ws.id}/assets`, {})).statusCode).toBe(404);
    const me = await key.get("/users/me");
    expect(me.statusCode).toBe(403);
    expect(me.json().detail).toContain("API keys work only on their own workspace's routes");
    expect((await key.get("/workspaces")).statusCode).toBe(403);
  });

  it("refuses expired, unknown and malformed keys with 401 and a clear detail", async () => {
    const { ws, admin } = await workspaceWith(env);
    const key = await newKey(admin.client, ws.id, ["assets:read"], {
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await env.rt.db
      .updateTable("api_keys")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("id", "=", key.id)
      .execute();
    const expired = await withKey(key.secret).get(`/workspaces/${ws.id}/boards`);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().detail).toBe("This API key has expired.");
    const unknown = await withKey(`hgr_${"A".repeat(43)}`).get(`/workspaces/${ws.id}/boards`);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().detail).toBe("This API key is not valid.");
    expect((await withKey("hgr_short").get(`/workspaces/${ws.id}/boards`)).statusCode).toBe(401);
  });

  it("is rate limited per key: 429 with Retry-After once the window is full", async () => {
    const { ws, admin } = await workspaceWith(env);
    const full = await newKey(admin.client, ws.id, ["assets:read"]);
    const fresh = await newKey(admin.client, ws.id, ["assets:read"]);
    await env.rt.db
      .insertInto("rate_limits")
      .values({ key: apiKeyLimitKey(full.id), window_start: new Date(), count: API_KEY_LIMIT.max })
      .execute();
    const res = await withKey(full.secret).get(`/workspaces/${ws.id}/boards`);
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    expect((await withKey(fresh.secret).get(`/workspaces/${ws.id}/boards`)).statusCode).toBe(200);
  });

  it("gives every workspace route a scope, and only the workspace's own settings fall to admin", () => {
    const adminTags = new Set(["workspaces", "members", "billing", "api keys", "webhooks", "audit", "sso"]);
    for (const r of apiRoutes) {
      const scope = routeScope(r);
      const name = `${r.method} ${r.path}`;
      if (r.access !== "workspace") expect(scope, name).toBeNull();
      else if (scope === "admin") expect(adminTags.has(r.tag), name).toBe(true);
      else expect(scope, name).not.toBeNull();
    }
  });

  it("the OpenAPI document names the scope each workspace route needs and the bearer scheme", async () => {
    const doc = (await env.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.paths["/api/v1/workspaces/{id}/boards"].get["x-api-key-scope"]).toBe("assets:read");
    expect(doc.paths["/api/v1/workspaces/{id}/boards"].post["x-api-key-scope"]).toBe("assets:write");
    expect(doc.paths["/api/v1/workspaces/{id}/comments"].post["x-api-key-scope"]).toBe("comments:write");
    expect(doc.paths["/api/v1/workspaces/{id}/api-keys"].post["x-api-key-scope"]).toBe("admin");
    expect(doc.paths["/api/v1/users/me"].get["x-api-key-scope"]).toBeUndefined();
  });
});
