import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createTestEnv, PASSWORD, signedInUser, type TestEnv, workspaceWith } from "../../../test/harness.ts";
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from "../../../test/oidc-provider.ts";
import { loadConfig } from "../../config.ts";
import { hashPassword } from "../auth/index.ts";

const HANGAR = "http://hangar.test";
const BUTTON = "Sign in with Corp";

let idp: TestOidcProvider;
let env: TestEnv; // SSO on, only @corp.test
let only: TestEnv; // OIDC_ONLY: passwords off
let none: TestEnv; // no SSO configured
beforeAll(async () => {
  idp = await startOidcProvider({ redirectUris: [`${HANGAR}/api/v1/auth/sso/callback`] });
  [env, only, none] = await Promise.all([
    createTestEnv({ ...idp.env, OIDC_ALLOWED_DOMAINS: "corp.test, @Corp2.test", OIDC_BUTTON_TEXT: BUTTON }),
    createTestEnv({ ...idp.env, OIDC_ONLY: "1" }),
    createTestEnv(),
  ]);
});
afterAll(async () => {
  await Promise.all([env?.close(), only?.close(), none?.close()]);
  await idp?.close();
});

/** A person at the provider (login = sub), with a fresh address at `domain`. */
function providerAccount(domain = "corp.test", verified = true, email?: string) {
  const login = `p-${randomUUID().slice(0, 8)}`;
  const address = email ?? `${login}@${domain}`;
  idp.accounts.set(login, { email: address, email_verified: verified, given_name: "Pat", family_name: "Doe" });
  return { login, email: address };
}

/** Hangar's start → the provider's login page, filled in → Hangar's callback (the answer). */
async function ssoSignIn(client: Client, login: string, opts: { next?: string; tamper?: (u: URL) => void } = {}) {
  const start = await client.get(`/auth/sso/start${opts.next ? `?next=${encodeURIComponent(opts.next)}` : ""}`);
  expect(start.statusCode, start.body).toBe(302);
  const location = String(start.headers.location);
  expect(location.startsWith(`${idp.issuer}/`)).toBe(true);
  const back = new URL(await signInAtProvider(location, login));
  expect(back.origin).toBe(HANGAR);
  const state = back.searchParams.get("state");
  opts.tamper?.(back);
  const browserCookie = client.cookies.get("hangar_sso");
  const callback = await client.get(`${back.pathname}${back.search}`);
  expect(callback.statusCode, callback.body).toBe(302);
  return { callback, location: String(callback.headers.location), back, browserCookie, state };
}

const ssoError = (location: string) => new URL(location).searchParams.get("sso_error") ?? "";

async function lastAudit(e: TestEnv, action: string, name: string) {
  return e.rt.db
    .selectFrom("audit_events")
    .selectAll()
    .where("action", "=", action)
    .where("object_name", "=", name)
    .orderBy("id", "desc")
    .executeTakeFirst();
}

describe("settings", () => {
  const load = (env: Record<string, string>) => () => loadConfig({ NODE_ENV: "test", ...env });
  const full = { OIDC_ISSUER: "https://login.example.com", OIDC_CLIENT_ID: "hangar", OIDC_CLIENT_SECRET: "s" };
  it("stop the start naming the variable when wrong or incomplete", () => {
    expect(load({ OIDC_ISSUER: "https://login.example.com" })).toThrow(
      /OIDC_CLIENT_ID: OIDC_CLIENT_ID is required for single sign-on/,
    );
    expect(load({ OIDC_ONLY: "1" })).toThrow(/OIDC_ISSUER: OIDC_ISSUER is required for single sign-on/);
    expect(load({ ...full, OIDC_ISSUER: "http://login.example.com" })).toThrow(/OIDC_ISSUER must be an https URL/);
    expect(load({ ...full, OIDC_ISSUER: "not a url" })).toThrow(/OIDC_ISSUER must be the provider's issuer URL/);
    expect(load({ ...full, OIDC_ALLOWED_DOMAINS: "corp.test, not_a domain" })).toThrow(
      /OIDC_ALLOWED_DOMAINS must be e-mail domains.*bad: not_a/,
    );
    expect(load({ ...full, OIDC_ONLY: "maybe" })).toThrow(/OIDC_ONLY/);
  });
  it("read domains in any case, with or without @, commas or spaces between", () => {
    const c = loadConfig({ NODE_ENV: "test", ...full, OIDC_ALLOWED_DOMAINS: "@Corp.test  corp2.test,sub.corp.test" });
    expect(c.OIDC_ALLOWED_DOMAINS).toEqual(["corp.test", "corp2.test", "sub.corp.test"]);
    expect(loadConfig({ NODE_ENV: "test", ...full, OIDC_ISSUER: "http://127.0.0.1:9000" }).OIDC_ISSUER).toBe(
      "http://127.0.0.1:9000",
    );
  });
});

describe("sign-in options", () => {
  it("say whether SSO is on, its button and whether passwords work", async () => {
    const c = (e: TestEnv) => new Client(e.app).get("/auth/options").then((r) => r.json().data);
    expect(await c(env)).toEqual({ sso: { enabled: true, button_text: BUTTON }, password_enabled: true });
    expect(await c(only)).toEqual({
      sso: { enabled: true, button_text: "Sign in with single sign-on" },
      password_enabled: false,
    });
    expect((await c(none)).sso.enabled).toBe(false);
  });
});

describe("single sign-on through the provider", () => {
  it("creates the account on first sign-in, verified, with a session like a password sign-in's", async () => {
    const { login, email } = providerAccount();
    const client = new Client(env.app);
    const { location, back } = await ssoSignIn(client, login, { next: "/w?from=sso" });
    // PKCE, state and nonce went to the provider; the callback came back with a code and our state.
    expect(back.searchParams.get("code")).toBeTruthy();
    expect(location).toBe(`${HANGAR}/w?from=sso`);
    expect(client.cookies.get("hangar_session")).toBeTruthy();
    expect(client.cookies.has("hangar_sso")).toBe(false);
    const me = await client.get("/users/me");
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ email, first_name: "Pat", last_name: "Doe" });
    const user = await env.rt.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(user.email_verified_at).not.toBeNull();
    expect(user.sso_subject).toBe(`${idp.issuer}#${login}`);
    const session = await env.rt.db
      .selectFrom("sessions")
      .selectAll()
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(session.sso).toBe(true);
    // The session works for mutations too (a CSRF token bound to it), as a password one does.
    expect((await client.post("/workspaces", { name: "Made after SSO" })).statusCode).toBe(201);
    const audit = await lastAudit(env, "account.signed_in", email);
    expect(audit).toMatchObject({ user_id: user.id, actor_kind: "member", changes: { method: "sso" } });
    expect(await lastAudit(env, "account.created", email)).toBeTruthy();

    // The next sign-in finds the same account by its subject.
    const again = new Client(env.app);
    await ssoSignIn(again, login);
    expect((await again.get("/users/me")).json().data.id).toBe(user.id);
  });

  it("matches an existing account by the provider-verified e-mail and links it", async () => {
    const email = `known-${randomUUID().slice(0, 8)}@corp.test`;
    const existing = await env.rt.services.users.create({
      email,
      password_hash: await hashPassword(PASSWORD),
      first_name: "Known",
      last_name: "Member",
      email_verified_at: new Date(),
    });
    const { login } = providerAccount("corp.test", true, email);
    const client = new Client(env.app);
    await ssoSignIn(client, login);
    const me = (await client.get("/users/me")).json().data;
    expect(me.id).toBe(existing!.id);
    expect(me.first_name).toBe("Known"); // the account's own names stay
    // A verified account keeps its password.
    expect((await new Client(env.app).post("/users/login", { email, password: PASSWORD })).statusCode).toBe(200);
  });

  it("an unproven account with that address loses its password and sessions when the provider proves it", async () => {
    const email = `squat-${randomUUID().slice(0, 8)}@corp.test`;
    await env.rt.services.users.create({
      email,
      password_hash: await hashPassword(PASSWORD),
      first_name: "",
      last_name: "",
      email_verified_at: null,
    });
    const { login } = providerAccount("corp.test", true, email);
    await ssoSignIn(new Client(env.app), login);
    const user = await env.rt.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(user.email_verified_at).not.toBeNull();
    const res = await new Client(env.app).post("/users/login", { email, password: PASSWORD });
    expect(res.statusCode).toBe(401);
  });

  it("refuses an e-mail the provider has not verified", async () => {
    const { login, email } = providerAccount("corp.test", false);
    const client = new Client(env.app);
    const { location } = await ssoSignIn(client, login);
    expect(location.startsWith(`${HANGAR}/a/login?`)).toBe(true);
    expect(ssoError(location)).toBe(`The provider has not verified ${email}. Verify it there, then sign in again.`);
    expect(client.cookies.has("hangar_session")).toBe(false);
    expect(await env.rt.services.users.findByEmail(email)).toBeUndefined();
    const audit = await lastAudit(env, "account.sign_in_failed", email);
    expect(audit?.changes).toEqual({ method: "sso", reason: "e-mail not verified" });
  });

  it("allows only OIDC_ALLOWED_DOMAINS", async () => {
    const outside = providerAccount("elsewhere.test");
    const refused = await ssoSignIn(new Client(env.app), outside.login);
    expect(ssoError(refused.location)).toBe(
      `Only addresses at @corp.test, @corp2.test can sign in here; ${outside.email} cannot.`,
    );
    expect(await env.rt.services.users.findByEmail(outside.email)).toBeUndefined();
    // The second domain (written with @ and capitals in the setting) is let in.
    const second = providerAccount("corp2.test");
    const client = new Client(env.app);
    await ssoSignIn(client, second.login);
    expect((await client.get("/users/me")).statusCode).toBe(200);
  });

  it("refuses a tampered or missing state, and the sign-in it interfered with is spent", async () => {
    const { login, email } = providerAccount();
    const tampered = new Client(env.app);
    const first = await ssoSignIn(tampered, login, { tamper: (u) => u.searchParams.set("state", "forged-state") });
    expect(ssoError(first.location)).toBe(
      "The provider's answer does not match the sign-in started in this browser. Start again.",
    );
    expect(tampered.cookies.has("hangar_session")).toBe(false);
    const missing = await ssoSignIn(new Client(env.app), login, { tamper: (u) => u.searchParams.delete("state") });
    expect(ssoError(missing.location)).toContain("does not match the sign-in started in this browser");
    expect(await env.rt.services.users.findByEmail(email)).toBeUndefined();
    // The untouched answer of the tampered attempt finds its sign-in already taken.
    tampered.cookies.set("hangar_sso", first.browserCookie!);
    first.back.searchParams.set("state", first.state!);
    const retry = await tampered.get(`${first.back.pathname}${first.back.search}`);
    expect(ssoError(String(retry.headers.location))).toBe("This sign-in answer was already used. Start again.");
  });

  it("refuses a replayed callback, and one from a browser that did not start the sign-in", async () => {
    const { login } = providerAccount();
    const client = new Client(env.app);
    const { back, browserCookie } = await ssoSignIn(client, login);
    expect(client.cookies.get("hangar_session")).toBeTruthy();
    const replay = new Client(env.app);
    replay.cookies.set("hangar_sso", browserCookie!);
    const again = await replay.get(`${back.pathname}${back.search}`);
    expect(again.statusCode).toBe(302);
    expect(ssoError(String(again.headers.location))).toBe("This sign-in answer was already used. Start again.");
    expect(replay.cookies.has("hangar_session")).toBe(false);
    // Someone else's browser, handed the callback URL, has no sign-in cookie.
    const stranger = new Client(env.app);
    const res = await stranger.get(`${back.pathname}${back.search}`);
    expect(ssoError(String(res.headers.location))).toBe(
      "This sign-in was not started in this browser, or took too long. Start again.",
    );
  });

  it("passes on the provider's own refusal", async () => {
    const client = new Client(env.app);
    const start = await client.get("/auth/sso/start");
    const state = new URL(String(start.headers.location)).searchParams.get("state")!;
    const res = await client.get(
      `/api/v1/auth/sso/callback?error=access_denied&error_description=${encodeURIComponent("End-User aborted interaction")}&state=${state}`,
    );
    expect(ssoError(String(res.headers.location))).toBe(
      "The provider did not sign you in: End-User aborted interaction.",
    );
  });

  it("checks its query", async () => {
    const client = new Client(env.app);
    const res = await client.get(`/auth/sso/start?next=${encodeURIComponent("//evil.test/")}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([
      { field: "next", message: "next must be a path in this app, starting with a single /" },
    ]);
    const long = await client.get(`/api/v1/auth/sso/callback?state=${"x".repeat(5000)}`);
    expect(long.statusCode).toBe(422);
  });
});

describe("OIDC_ONLY", () => {
  it("turns password sign-in, sign-up and reset off with a clear text; SSO signs in", async () => {
    const text =
      "Password sign-in is turned off on this server: use “Sign in with single sign-on” on the sign-in page.";
    const client = new Client(only.app);
    const email = `someone-${randomUUID().slice(0, 8)}@corp.test`;
    for (const [url, body] of [
      ["/users/login", { email, password: PASSWORD }],
      ["/users/register", { email, password: PASSWORD, first_name: "A", last_name: "B" }],
      ["/users/forgot-password", { email }],
      ["/users/reset-password", { token: "x".repeat(43), new_password: "a new password 123" }],
    ] as const) {
      const res = await client.post(url, body);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().detail).toBe(text);
    }
    const { login } = providerAccount("anywhere.test");
    await ssoSignIn(client, login);
    expect((await client.get("/users/me")).statusCode).toBe(200);
  });
});

describe("workspaces requiring single sign-on", () => {
  it("lets in only SSO sessions, refuses invitations outside the allowed domains, and is recorded", async () => {
    // An ADMIN who signed in through the provider, and members who signed in with passwords.
    const adminAccount = providerAccount();
    const admin = new Client(env.app);
    await ssoSignIn(admin, adminAccount.login);
    const ws = (await admin.post("/workspaces", { name: "Corp" })).json();
    const editor = await signedInUser(env);
    const commenter = await signedInUser(env);
    const outsider = await signedInUser(env);
    for (const [m, role] of [
      [editor, "EDITOR"],
      [commenter, "COMMENTER"],
    ] as const)
      await env.rt.db.insertInto("memberships").values({ workspace_id: ws.id, user_id: m.user.id, role }).execute();

    const off = await admin.get(`/workspaces/${ws.id}/sso`);
    expect(off.json().data).toEqual({
      require_sso: false,
      available: true,
      button_text: BUTTON,
      allowed_domains: ["corp.test", "corp2.test"],
    });
    expect((await outsider.client.get(`/workspaces/${ws.id}/sso`)).statusCode).toBe(404);
    expect((await outsider.client.put(`/workspaces/${ws.id}/sso`, { require_sso: true })).statusCode).toBe(404);
    expect((await commenter.client.put(`/workspaces/${ws.id}/sso`, { require_sso: true })).statusCode).toBe(403);
    expect((await editor.client.put(`/workspaces/${ws.id}/sso`, { require_sso: true })).statusCode).toBe(403);
    expect((await admin.put(`/workspaces/${ws.id}/sso`, { require_sso: "yes" })).statusCode).toBe(422);

    // A password-signed ADMIN would lock themselves out: refused.
    const passwordAdmin = await signedInUser(env);
    await env.rt.db
      .insertInto("memberships")
      .values({ workspace_id: ws.id, user_id: passwordAdmin.user.id, role: "ADMIN" })
      .execute();
    const lockout = await passwordAdmin.client.put(`/workspaces/${ws.id}/sso`, { require_sso: true });
    expect(lockout.statusCode).toBe(409);
    expect(lockout.json().detail).toBe(`Sign in with “${BUTTON}” first: this session would be refused at once.`);

    const on = await admin.put(`/workspaces/${ws.id}/sso`, { require_sso: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().data.require_sso).toBe(true);
    const audit = await env.rt.db
      .selectFrom("audit_events")
      .selectAll()
      .where("workspace_id", "=", ws.id)
      .where("action", "=", "workspace.updated")
      .executeTakeFirstOrThrow();
    expect(audit.changes).toEqual({ require_sso: { before: false, after: true } });

    // Password sessions get the rule's text on every route of the workspace (reads and writes).
    for (const res of [
      await editor.client.get(`/workspaces/${ws.id}/boards`),
      await editor.client.post(`/workspaces/${ws.id}/boards`, { name: "Nope" }),
      await passwordAdmin.client.get(`/workspaces/${ws.id}/sso`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        code: "SSO_REQUIRED",
        detail: `This workspace requires single sign-on: sign in again with “${BUTTON}”.`,
      });
    }
    // An outsider still learns nothing.
    expect((await outsider.client.get(`/workspaces/${ws.id}/boards`)).statusCode).toBe(404);
    // The SSO session works.
    expect((await admin.get(`/workspaces/${ws.id}/boards`)).statusCode).toBe(200);

    // Invitations: only addresses that can sign in through the provider.
    const refused = await admin.post(`/workspaces/${ws.id}/invites`, {
      email: "friend@elsewhere.test",
      role: "EDITOR",
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toBe(
      "This workspace requires single sign-on, and only addresses at @corp.test, @corp2.test can sign in through it.",
    );
    expect(refused.json().errors).toEqual([
      { field: "email", message: "Invite an address at @corp.test, @corp2.test" },
    ]);
    const invited = await admin.post(`/workspaces/${ws.id}/invites`, { email: "colleague@corp.test", role: "EDITOR" });
    expect(invited.statusCode, invited.body).toBe(201);

    // The editor signs in through the provider (their address is at corp.test there) and is let in.
    const editorAtCorp = `editor-${randomUUID().slice(0, 8)}@corp.test`;
    await env.rt.services.users.update(editor.user.id, { email: editorAtCorp });
    const editorSso = new Client(env.app);
    await ssoSignIn(editorSso, providerAccount("corp.test", true, editorAtCorp).login);
    expect((await editorSso.get(`/workspaces/${ws.id}/boards`)).statusCode).toBe(200);

    // Turned off again, passwords work there again.
    expect((await admin.put(`/workspaces/${ws.id}/sso`, { require_sso: false })).statusCode).toBe(200);
    expect((await commenter.client.get(`/workspaces/${ws.id}/boards`)).statusCode).toBe(200);
  });

  it("cannot be required where the server has no SSO, and without SSO nothing is refused", async () => {
    const { ws, admin } = await workspaceWith(none);
    const res = await admin.client.put(`/workspaces/${ws.id}/sso`, { require_sso: true });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(
      "Single sign-on is not configured on this server (OIDC_ISSUER), so it cannot be required.",
    );
    expect((await admin.client.get(`/workspaces/${ws.id}/sso`)).json().data).toMatchObject({
      require_sso: false,
      available: false,
    });
    const start = await new Client(none.app).get("/auth/sso/start");
    expect(start.statusCode).toBe(409);
    expect(start.json().detail).toBe("Single sign-on is not configured on this server.");
    const cb = await new Client(none.app).get("/api/v1/auth/sso/callback?code=x&state=y");
    expect(ssoError(String(cb.headers.location))).toBe("Single sign-on is not configured on this server.");
  });
});

describe("a provider that cannot be reached", () => {
  it("does not stop Hangar from starting; a sign-in answers 503 with a clear text", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    const down = await createTestEnv({
      OIDC_ISSUER: `http://127.0.0.1:${port}`,
      OIDC_CLIENT_ID: "hangar",
      OIDC_CLIENT_SECRET: "secret",
    });
    try {
      const res = await new Client(down.app).get("/auth/sso/start");
      expect(res.statusCode).toBe(503);
      expect(res.json().detail).toContain(
        `The sign-in provider (http://127.0.0.1:${port}) cannot be reached right now`,
      );
      // Password sign-in still works meanwhile.
      await signedInUser(down);
    } finally {
      await down.close();
    }
  });
});
