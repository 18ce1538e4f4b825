import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Client,
  createTestEnv,
  linkToken,
  PASSWORD,
  signedInUser,
  type TestEnv,
  waitForOutboxMail,
  workspaceWith,
} from "../../../test/harness.ts";
import { PERSONAL_TOKEN_LIMIT, personalTokenLimitKey, secretHash } from "./index.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

/** A caller with only a bearer token: no cookie, no CSRF token. */
function withToken(secret: string) {
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
    patch: (url: string, body: object = {}) => call("PATCH", url, body),
    del: (url: string) => call("DELETE", url),
  };
}

async function newToken(client: Client, extra: object = {}) {
  const res = await client.post("/users/me/tokens", { name: "script", ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string; prefix: string; expires_at: string; scopes: string[] };
}

const DAY = 86_400_000;

describe("personal access tokens", () => {
  it("creates a token whose secret is answered once and stored hashed, lists and revokes it", async () => {
    const me = await signedInUser(env);
    const before = Date.now();
    const created = await newToken(me.client, { name: "  Laptop sync " });
    expect(created.secret).toMatch(/^hgp_[A-Za-z0-9_-]{43}$/);
    expect(created.secret.startsWith(created.prefix)).toBe(true);
    expect(created).toMatchObject({ name: "Laptop sync", scopes: ["admin"], last_used_at: null, revoked_at: null });
    // No expiry asked for: 90 days.
    const days = (Date.parse(created.expires_at) - before) / DAY;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThan(90.1);
    const row = await env.rt.db
      .selectFrom("personal_tokens")
      .selectAll()
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(secretHash(created.secret));
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(4));

    const list = await me.client.get("/users/me/tokens");
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([expect.objectContaining({ id: created.id, prefix: created.prefix })]);
    expect(list.body).not.toContain(created.secret);

    const t = withToken(created.secret);
    const whoami = await t.get("/users/me");
    expect(whoami.statusCode, whoami.body).toBe(200);
    expect(whoami.json().data.email).toBe(me.email);
    // A full token changes the profile (not the password or e-mail: below).
    expect((await t.patch("/users/me", { first_name: "Scripted" })).statusCode).toBe(200);
    expect((await me.client.get("/users/me/tokens")).json().data[0].last_used_at).not.toBeNull();

    // Someone else's tokens are not theirs to see or revoke.
    const other = await signedInUser(env);
    expect((await other.client.get("/users/me/tokens")).json().data).toEqual([]);
    expect((await other.client.del(`/users/me/tokens/${created.id}`)).statusCode).toBe(404);

    expect((await me.client.del(`/users/me/tokens/${created.id}`)).statusCode).toBe(200);
    expect((await me.client.get("/users/me/tokens")).json().data[0].revoked_at).not.toBeNull();
    const refused = await t.get("/users/me");
    expect(refused.statusCode).toBe(401);
    expect(refused.json().detail).toBe("This personal access token has been revoked.");
    // Signed out, nobody manages tokens.
    expect((await env.app.inject({ method: "GET", url: "/api/v1/users/me/tokens" })).statusCode).toBe(401);
  });

  it("refuses bad bodies with 422 naming the field: empty name, unknown scope, past or too far expiry", async () => {
    const me = await signedInUser(env);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: " " }, "name"],
      [{ name: "t", scopes: ["assets:delete"] }, "scopes"],
      [{ name: "t", scopes: [] }, "scopes"],
      [{ name: "t", expires_at: new Date(Date.now() - 60_000).toISOString() }, "expires_at"],
      [{ name: "t", expires_at: new Date(Date.now() + 400 * DAY).toISOString() }, "expires_at"],
      [{ name: "t", expires_at: "next week" }, "expires_at"],
    ];
    for (const [body, field] of cases) {
      const res = await me.client.post("/users/me/tokens", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(res.json().errors), JSON.stringify(body)).toContain(field);
    }
    expect((await me.client.del("/users/me/tokens/not-a-uuid")).statusCode).toBe(422);
    const year = await me.client.post("/users/me/tokens", {
      name: "a year",
      expires_at: new Date(Date.now() + 365 * DAY).toISOString(),
    });
    expect(year.statusCode, year.body).toBe(201);
  });

  it("acts as its user in each of their workspaces with their role there, needs no CSRF; outsiders' 404", async () => {
    // The user is an EDITOR in one workspace, a COMMENTER in another, an ADMIN of a third.
    const one = await workspaceWith(env, ["EDITOR"]);
    const me = one.members.EDITOR!;
    const two = await workspaceWith(env);
    await env.rt.db
      .insertInto("memberships")
      .values({ workspace_id: two.ws.id, user_id: me.user.id, role: "COMMENTER" })
      .execute();
    const own = (await me.client.post("/workspaces", { name: "Mine" })).json().id as string;
    const stranger = await workspaceWith(env);
    const t = withToken((await newToken(me.client)).secret);

    const listed = await t.get("/workspaces");
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.body).toContain(one.ws.id);
    expect(listed.body).toContain(two.ws.id);

    // EDITOR: reads and writes, not the workspace's settings.
    expect((await t.get(`/workspaces/${one.ws.id}/boards`)).statusCode).toBe(200);
    const board = await t.post(`/workspaces/${one.ws.id}/boards`, { name: "From my script" });
    expect(board.statusCode, board.body).toBe(201);
    expect((await t.put(`/workspaces/${one.ws.id}`, { name: "Renamed" })).statusCode).toBe(403);
    // COMMENTER: reads, comments, cannot edit.
    expect((await t.get(`/workspaces/${two.ws.id}/boards`)).statusCode).toBe(200);
    const refused = await t.post(`/workspaces/${two.ws.id}/boards`, { name: "Not mine to make" });
    expect(refused.statusCode).toBe(403);
    // ADMIN of their own.
    expect((await t.put(`/workspaces/${own}`, { name: "Still mine" })).statusCode).toBe(200);
    // Not a member: 404, as for a signed-in outsider.
    expect((await t.get(`/workspaces/${stranger.ws.id}/boards`)).statusCode).toBe(404);
    expect((await t.post(`/workspaces/${stranger.ws.id}/boards`, { name: "x" })).statusCode).toBe(404);

    // The audit log names the user, through their token.
    const log = (await one.admin.client.get(`/workspaces/${one.ws.id}/audit?action=board.created`)).json().data;
    expect(log[0]).toMatchObject({
      actor: { kind: "personal_token", id: me.user.id, name: expect.stringContaining("(token “script”)") },
      object: { id: board.json().id },
    });
  });

  it("is capped by its scopes: a read-only token of an ADMIN reads but writes nothing", async () => {
    const { ws, admin } = await workspaceWith(env);
    const reader = withToken((await newToken(admin.client, { scopes: ["assets:read"] })).secret);
    expect((await reader.get(`/workspaces/${ws.id}/boards`)).statusCode).toBe(200);
    const write = await reader.post(`/workspaces/${ws.id}/boards`, { name: "x" });
    expect(write.statusCode).toBe(403);
    expect(write.json().detail).toContain("assets:write");
    expect((await reader.patch("/users/me", { first_name: "Changed" })).statusCode).toBe(403);
    // A writer without admin is an EDITOR at most, whatever its user is.
    const writer = withToken((await newToken(admin.client, { scopes: ["assets:read", "assets:write"] })).secret);
    expect((await writer.post(`/workspaces/${ws.id}/boards`, { name: "ok" })).statusCode).toBe(201);
    expect((await writer.put(`/workspaces/${ws.id}`, { name: "Renamed" })).statusCode).toBe(403);
  });

  it("cannot make tokens or API keys, nor change the password or e-mail (403 saying why)", async () => {
    const { ws, admin } = await workspaceWith(env);
    const t = withToken((await newToken(admin.client)).secret);
    const calls = [
      await t.get("/users/me/tokens"),
      await t.post("/users/me/tokens", { name: "another" }),
      await t.del(`/users/me/tokens/${ws.id}`),
      await t.get(`/workspaces/${ws.id}/api-keys`),
      await t.post(`/workspaces/${ws.id}/api-keys`, { name: "k", scopes: ["admin"] }),
      await t.post("/users/change-password", { current_password: PASSWORD, new_password: "a whole new one" }),
      await t.post("/users/change-email", { new_email: "new@example.test", current_password: PASSWORD }),
    ];
    for (const res of calls) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().detail).toContain("needs a signed-in session");
    }
    expect((await admin.client.get("/users/me/tokens")).json().data).toHaveLength(1);
    // A workspace ADMIN's token may still do the rest of an ADMIN's work.
    expect((await t.put(`/workspaces/${ws.id}`, { name: "Renamed by token" })).statusCode).toBe(200);
  });

  it("refuses expired, unknown and malformed tokens with 401 and a clear detail", async () => {
    const me = await signedInUser(env);
    const token = await newToken(me.client);
    await env.rt.db
      .updateTable("personal_tokens")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("id", "=", token.id)
      .execute();
    const expired = await withToken(token.secret).get("/users/me");
    expect(expired.statusCode).toBe(401);
    expect(expired.json().detail).toBe("This personal access token has expired.");
    const unknown = await withToken(`hgp_${"A".repeat(43)}`).get("/users/me");
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().detail).toBe("This personal access token is not valid.");
    expect((await withToken("hgp_short").get("/users/me")).statusCode).toBe(401);
  });

  it("a password change or reset revokes every token of the account", async () => {
    const me = await signedInUser(env);
    const first = await newToken(me.client, { name: "first" });
    expect((await withToken(first.secret).get("/users/me")).statusCode).toBe(200);
    const changed = await me.client.post("/users/change-password", {
      current_password: PASSWORD,
      new_password: "an even better horse",
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = await withToken(first.secret).get("/users/me");
    expect(after.statusCode).toBe(401);
    expect(after.json().detail).toBe("This personal access token was revoked when the account's password changed.");
    expect((await me.client.get("/users/me/tokens")).json().data[0]).toMatchObject({
      revoked_reason: "password_changed",
    });

    // A reset (from the mailed link) ends them too.
    const second = await newToken(me.client, { name: "second" });
    await me.client.post("/users/forgot-password", { email: me.email });
    const mail = await waitForOutboxMail(env, me.email, "Reset");
    const reset = await me.client.post("/users/reset-password", {
      token: linkToken(mail.text_body, "/a/reset-password?token="),
      new_password: "the newest password",
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await withToken(second.secret).get("/users/me")).statusCode).toBe(401);
  });

  it("holds its own rate limit under 200 parallel requests: exactly what is left passes", async () => {
    const me = await signedInUser(env);
    const full = await newToken(me.client);
    const fresh = await newToken(me.client);
    const left = 50;
    await env.rt.db
      .insertInto("rate_limits")
      .values({ key: personalTokenLimitKey(full.id), window_start: new Date(), count: PERSONAL_TOKEN_LIMIT.max - left })
      .execute();
    const t = withToken(full.secret);
    const answers = await Promise.all(Array.from({ length: 200 }, () => t.get("/users/me")));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(left);
    expect(codes.filter((c) => c === 429)).toHaveLength(200 - left);
    const limited = answers.find((a) => a.statusCode === 429)!;
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.json().detail).toContain("personal access token");
    // Another token of the same user has a window of its own.
    expect((await withToken(fresh.secret).get("/users/me")).statusCode).toBe(200);
  });

  it("records creation and revocation on the account, and the OpenAPI document declares the scheme", async () => {
    const { ws, admin } = await workspaceWith(env);
    const token = await newToken(admin.client, { name: "Audit me" });
    await admin.client.del(`/users/me/tokens/${token.id}`);
    const log = (await admin.client.get(`/workspaces/${ws.id}/audit?action=personal_token`)).json().data;
    expect(log.map((e: { action: string }) => e.action)).toEqual(["personal_token.revoked", "personal_token.created"]);
    expect(log[1]).toMatchObject({
      actor: { kind: "member", id: admin.user.id },
      object: { id: token.id, name: "Audit me" },
    });
    expect(JSON.stringify(log)).not.toContain(token.secret.slice(4));

    const doc = (await env.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    expect(doc.components.securitySchemes.personalToken).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.paths["/api/v1/users/me"].get.security).toContainEqual({ personalToken: [] });
    expect(doc.paths["/api/v1/workspaces/{id}/boards"].post.security).toContainEqual({ personalToken: [] });
    expect(doc.paths["/api/v1/users/me/tokens"].post.security).not.toContainEqual({ personalToken: [] });
    expect(doc.paths["/api/v1/users/change-password"].post.security).not.toContainEqual({ personalToken: [] });
  });
});
