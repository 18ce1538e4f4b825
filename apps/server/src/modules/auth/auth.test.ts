import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  createTestEnv,
  linkToken,
  PASSWORD,
  signedInUser,
  type TestEnv,
  uniqueEmail,
  waitForOutboxMail,
} from "../../../test/harness.ts";

let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(() => env.close());

async function registerAndVerify(email = uniqueEmail()) {
  const c = new Client(env.app);
  const res = await c.post("/users/register", { email, password: PASSWORD, first_name: "Ada", last_name: "Lovelace" });
  expect(res.statusCode).toBe(200);
  const mail = await waitForOutboxMail(env, email, "Verify");
  const token = linkToken(mail.text_body, "/a/verify-email/");
  const v = await c.post(`/users/verify-email/${token}`);
  expect(v.statusCode).toBe(200);
  return { c, email, token };
}

describe("csrf token", () => {
  it("answers {data:{csrftoken}} and sets the XSRF-TOKEN cookie", async () => {
    const c = new Client(env.app);
    const res = await c.get("/users/set-csrf-token");
    expect(res.statusCode).toBe(200);
    const token = res.json().data.csrftoken;
    expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(c.cookies.get("XSRF-TOKEN")).toBe(token);
  });
  it("accepts the token in X-XSRF-TOKEN too", async () => {
    const c = new Client(env.app);
    const token = await c.fetchCsrf();
    const res = await c.request(
      "POST",
      "/users/login",
      { email: "nobody@example.test", password: "whatever1" },
      {
        csrf: false,
        headers: { "x-xsrf-token": token },
      },
    );
    expect(res.statusCode).toBe(401);
  });
  it("signing in sets a new token bound to the session: the one from before is refused, the cookie's works", async () => {
    const { email } = await registerAndVerify();
    const c = new Client(env.app);
    const before = await c.fetchCsrf();
    const login = await c.post("/users/login", { email, password: PASSWORD });
    expect(login.statusCode).toBe(200);
    const after = c.cookies.get("XSRF-TOKEN");
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    // What an integrator does with cookies alone: echo the cookie, as the document's CSRF dance says.
    const stale = await c.request(
      "PATCH",
      "/users/me",
      { first_name: "Stale" },
      { csrf: false, headers: { "x-csrftoken": before } },
    );
    expect(stale.statusCode).toBe(403);
    expect(stale.json().code).toBe("CSRF_FAILED");
    const fresh = await c.request(
      "PATCH",
      "/users/me",
      { first_name: "Fresh" },
      { csrf: false, headers: { "x-csrftoken": after ?? "" } },
    );
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().data.first_name).toBe("Fresh");
  });
});

describe("register and verify", () => {
  it("registers, mails a link, verifies, signs in; me answers {status, data}", async () => {
    const email = uniqueEmail();
    const c = new Client(env.app);
    const res = await c.post("/users/register", { email, password: PASSWORD, first_name: " Ada ", last_name: "L" });
    expect(res.json()).toMatchObject({ status: "ok", signed_in: false, data: null });
    expect((await c.get("/users/me")).statusCode).toBe(401);
    // Not verified yet: the right password gets a clear 403, not a session.
    const early = await c.post("/users/login", { email, password: PASSWORD });
    expect(early.statusCode).toBe(403);
    expect(early.json().code).toBe("EMAIL_NOT_VERIFIED");

    const mail = await waitForOutboxMail(env, email, "Verify");
    const token = linkToken(mail.text_body, "http://hangar.test/a/verify-email/");
    const v = await c.post(`/users/verify-email/${token}`);
    expect(v.statusCode).toBe(200);
    expect(v.json().data).toMatchObject({ email, first_name: "Ada", email_verified: true, avatar_url: null });
    const me = await c.get("/users/me");
    expect(me.json()).toMatchObject({ status: "ok", data: { email } });
    expect(me.json().data.password_hash).toBeUndefined();
    // Single use.
    expect((await new Client(env.app).post(`/users/verify-email/${token}`)).statusCode).toBe(404);
  });

  it("answers the same for an address that already has an account, and mails its owner", async () => {
    const { email } = await registerAndVerify();
    const again = await new Client(env.app).post("/users/register", {
      email,
      password: "another password",
      first_name: "Eve",
    });
    const fresh = await new Client(env.app).post("/users/register", {
      email: uniqueEmail(),
      password: PASSWORD,
      first_name: "Eve",
    });
    expect(again.statusCode).toBe(fresh.statusCode);
    expect(Object.keys(again.json()).sort()).toEqual(Object.keys(fresh.json()).sort());
    expect(again.json().signed_in).toBe(false);
    await waitForOutboxMail(env, email, "tried to sign up");
    // The original password still works.
    expect((await new Client(env.app).post("/users/login", { email, password: PASSWORD })).statusCode).toBe(200);
  });

  it("rejects bad input with 422 naming the fields", async () => {
    const res = await new Client(env.app).post("/users/register", {
      email: "not-an-email",
      password: "short",
      first_name: "",
    });
    expect(res.statusCode).toBe(422);
    const fields = res.json().errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(["email", "password", "first_name"]));
    expect(res.json().detail).toMatch(/email/);
    const long = await new Client(env.app).post("/users/register", {
      email: uniqueEmail(),
      password: "x".repeat(129),
      first_name: "A",
    });
    expect(long.statusCode).toBe(422);
  });

  it("resend-verification answers the same whether or not the account exists", async () => {
    const a = await new Client(env.app).post("/users/resend-verification", { email: uniqueEmail() });
    const email = uniqueEmail();
    await new Client(env.app).post("/users/register", { email, password: PASSWORD, first_name: "B" });
    const b = await new Client(env.app).post("/users/resend-verification", { email });
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json().detail.replace(/\S+@\S+/, "")).toBe(b.json().detail.replace(/\S+@\S+/, ""));
  });
});

describe("login, logout, sessions", () => {
  it("gives a fresh HttpOnly SameSite=Lax session at login and ends it at logout", async () => {
    const { email } = await registerAndVerify();
    const c = new Client(env.app);
    const res = await c.post("/users/login", { email: email.toUpperCase(), password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const setCookie = String(res.headers["set-cookie"]);
    expect(setCookie).toMatch(/hangar_session=[^;]+;.*HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const first = c.cookies.get("hangar_session");
    await c.post("/users/login", { email, password: PASSWORD });
    expect(c.cookies.get("hangar_session")).not.toBe(first);

    const stolen = new Client(env.app);
    stolen.cookies.set("hangar_session", c.cookies.get("hangar_session")!);
    expect((await c.post("/users/logout")).statusCode).toBe(200);
    expect((await stolen.get("/users/me")).statusCode).toBe(401);
  });

  it("does not reveal whether the account exists", async () => {
    const { email } = await registerAndVerify();
    const wrongPw = await new Client(env.app).post("/users/login", { email, password: "wrong password" });
    const noUser = await new Client(env.app).post("/users/login", { email: uniqueEmail(), password: "wrong password" });
    expect(wrongPw.statusCode).toBe(401);
    expect(noUser.statusCode).toBe(401);
    expect(wrongPw.json()).toEqual(noUser.json());
  });

  it("throttles repeated bad logins with 429 and Retry-After, and the right password waits too", async () => {
    const { email } = await registerAndVerify();
    const c = new Client(env.app);
    const codes: number[] = [];
    for (let i = 0; i < 10; i++)
      codes.push((await c.post("/users/login", { email, password: `bad-${i}-password` })).statusCode);
    expect(codes.slice(0, 8).every((s) => s === 401)).toBe(true);
    expect(codes.slice(8)).toEqual([429, 429]);
    const res = await c.post("/users/login", { email, password: PASSWORD });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(res.headers["retry-after"])).toBeLessThanOrEqual(600);
    // Another account from the same client is not locked.
    const other = await registerAndVerify();
    expect((await c.post("/users/login", { email: other.email, password: PASSWORD })).statusCode).toBe(200);
  });
});

describe("password reset", () => {
  it("mails a single-use link, resets, ends every session", async () => {
    const { email, c: oldSession } = await registerAndVerify();
    const c = new Client(env.app);
    const res = await c.post("/users/forgot-password", { email });
    const unknown = await c.post("/users/forgot-password", { email: uniqueEmail() });
    expect(res.json().detail.replace(/\S+@\S+/, "")).toBe(unknown.json().detail.replace(/\S+@\S+/, ""));
    const mail = await waitForOutboxMail(env, email, "Reset");
    const token = linkToken(mail.text_body, "/a/reset-password?token=");
    const weak = await c.post("/users/reset-password", { token, new_password: "short" });
    expect(weak.statusCode).toBe(422);
    const ok = await c.post("/users/reset-password", { token, new_password: "a brand new password" });
    expect(ok.statusCode).toBe(200);
    expect((await c.post("/users/reset-password", { token, new_password: "another new password" })).statusCode).toBe(
      404,
    );
    expect((await oldSession.get("/users/me")).statusCode).toBe(401);
    expect((await c.post("/users/login", { email, password: PASSWORD })).statusCode).toBe(401);
    expect((await c.post("/users/login", { email, password: "a brand new password" })).statusCode).toBe(200);
  });

  it("rejects an expired link", async () => {
    const { email } = await registerAndVerify();
    await new Client(env.app).post("/users/forgot-password", { email });
    const mail = await waitForOutboxMail(env, email, "Reset");
    const token = linkToken(mail.text_body, "/a/reset-password?token=");
    await env.rt.db
      .updateTable("email_tokens")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("email", "=", email)
      .execute();
    expect(
      (await new Client(env.app).post("/users/reset-password", { token, new_password: "a brand new password" }))
        .statusCode,
    ).toBe(404);
  });
});

describe("account settings", () => {
  it("patches the profile; validates names", async () => {
    const { client } = await signedInUser(env);
    const res = await client.patch("/users/me", { first_name: "Grace", last_name: "Hopper" });
    expect(res.json().data).toMatchObject({ first_name: "Grace", last_name: "Hopper" });
    expect((await client.patch("/users/me", { first_name: "   " })).statusCode).toBe(422);
    expect((await client.patch("/users/me", { email: "x@y.z" })).statusCode).toBe(422);
  });

  it("changes the password: wrong current is 422, other sessions end, this one continues", async () => {
    const { client, email } = await signedInUser(env);
    const other = new Client(env.app);
    await other.post("/users/login", { email, password: PASSWORD });
    const bad = await client.post("/users/change-password", {
      current_password: "nope nope",
      new_password: "the next password",
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0].field).toBe("current_password");
    const ok = await client.post("/users/change-password", {
      current_password: PASSWORD,
      new_password: "the next password",
    });
    expect(ok.statusCode).toBe(200);
    expect((await client.get("/users/me")).statusCode).toBe(200);
    expect((await other.get("/users/me")).statusCode).toBe(401);
  });

  it("changes the e-mail after the new address confirms", async () => {
    const { client, user } = await signedInUser(env);
    const taken = await signedInUser(env);
    // Issue 12: a taken address answers as a free one does (no enumeration); its owner is told instead.
    const tried = await client.post("/users/change-email", { new_email: taken.email, current_password: PASSWORD });
    expect(tried.statusCode).toBe(200);
    await waitForOutboxMail(env, taken.email, "Someone tried to use your e-mail");
    expect((await client.get("/users/me")).json().data.pending_email).toBe(null);
    const next = uniqueEmail("next");
    const wrongPassword = await client.post("/users/change-email", { new_email: next, current_password: "not-it-123" });
    expect(wrongPassword.statusCode).toBe(422);
    expect(wrongPassword.json().errors[0].field).toBe("current_password");
    const res = await client.post("/users/change-email", { new_email: next, current_password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().detail.replace(next, "X")).toBe(tried.json().detail.replace(taken.email, "X"));
    await waitForOutboxMail(env, user.email, "is being changed");
    const noticeAbout = async (address: string) =>
      env.rt.db
        .selectFrom("mail_outbox")
        .select("text_body")
        .where("to_address", "=", user.email)
        .where("text_body", "like", `%${address}%`)
        .executeTakeFirst();
    for (let t = 0; t < 100 && !(await noticeAbout(next)); t++) await new Promise((r) => setTimeout(r, 100));
    expect(await noticeAbout(next)).toBeTruthy();
    expect((await client.get("/users/me")).json().data.pending_email).toBe(next);
    const mail = await waitForOutboxMail(env, next, "Confirm your new");
    const token = linkToken(mail.text_body, "/a/verify-email-change/");
    const v = await new Client(env.app).get(`/users/verify-email-change/${token}`);
    expect(v.statusCode).toBe(200);
    expect((await client.get("/users/me")).json().data).toMatchObject({ email: next, pending_email: null });
  });

  it("uploads an avatar (type from the bytes), serves it, deletes it", async () => {
    const sharp = (await import("sharp")).default;
    const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#3366ff" } })
      .png()
      .toBuffer();
    const { client, user } = await signedInUser(env);
    const form = (field: string, bytes: Buffer, name: string) => {
      const boundary = "----hangartest";
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return client.request("POST", "/users/avatar/upload", undefined, {
        payload,
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      });
    };
    const notImage = await form("avatar_file", Buffer.from("<svg onload=alert(1)>"), "evil.png");
    expect(notImage.statusCode).toBe(422);
    const wrongField = await form("file", png, "a.png");
    expect(wrongField.statusCode).toBe(422);
    const ok = await form("avatar_file", png, "named-wrong.txt");
    expect(ok.statusCode).toBe(200);
    const url = ok.json().data.avatar_url as string;
    expect(url).toContain(`/users/${user.id}/avatar`);
    const img = await client.get("/users/avatar");
    expect(img.headers["content-type"]).toBe("image/webp");
    const meta = await sharp(img.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([256, 256]);
    expect((await client.get(url)).statusCode).toBe(200);
    // Someone sharing no workspace cannot fetch it.
    const stranger = await signedInUser(env);
    expect((await stranger.client.get(url)).statusCode).toBe(404);
    // An iPhone photo (HEIC) works too.
    const { readFile } = await import("node:fs/promises");
    const heic = await readFile(new URL("../../../test/files/quadrants.heic", import.meta.url));
    expect((await form("avatar_file", heic, "IMG_0001.HEIC")).statusCode).toBe(200);
    const fromHeic = await sharp((await client.get("/users/avatar")).rawPayload).metadata();
    expect([fromHeic.format, fromHeic.width, fromHeic.height]).toEqual(["webp", 256, 256]);
    const del = await client.del("/users/avatar");
    expect(del.json().data.avatar_url).toBeNull();
    expect((await client.get("/users/avatar")).statusCode).toBe(404);
  });
});

describe("sign-up throttle", () => {
  let limited: TestEnv;
  beforeAll(async () => {
    limited = await createTestEnv({ REGISTRATIONS_PER_IP_PER_HOUR: "2" }, { work: false });
  });
  afterAll(() => limited?.close());

  it("accepts REGISTRATIONS_PER_IP_PER_HOUR sign-ups from one address, then answers 429", async () => {
    const client = new Client(limited.app);
    const register = () =>
      client.post("/users/register", { email: uniqueEmail(), password: PASSWORD, first_name: "N", last_name: "A" });
    expect((await register()).statusCode).toBe(200);
    expect((await register()).statusCode).toBe(200);
    const third = await register();
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ detail: "Too many sign-ups from here. Try again later." });
    // Another address is not affected.
    expect(
      (
        await new Client(limited.app).post("/users/register", {
          email: uniqueEmail(),
          password: PASSWORD,
          first_name: "O",
          last_name: "B",
        })
      ).statusCode,
    ).toBe(200);
  });
});
